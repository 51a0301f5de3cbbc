/**
 * The `--json` objects and human summaries of each operation, shared by the commands and the demo
 * (the demo saves the very objects `--json` prints).
 */
import type { BlendResult, DownloadResult, ImageToVideoResult, TextToVideoResult } from '@mediagw/core';

export function imageToVideoJson(result: ImageToVideoResult) {
  return { operation: result.operation, taskId: result.taskId, status: result.status, response: result.response };
}

export function imageToVideoSummary(result: ImageToVideoResult): string[] {
  const { limit, remaining, type } = result.quota;
  return [
    `image-to-video: task ${result.taskId} created (status ${result.status})`,
    `  quota: ${remaining} of ${limit} left (${type})`,
  ];
}

export function textToVideoJson(result: TextToVideoResult, saved?: DownloadResult) {
  return {
    operation: result.operation,
    status: result.status,
    videoUrl: result.videoUrl,
    contentType: result.contentType,
    fileSize: result.fileSize,
    seed: result.seed,
    requestId: result.requestId,
    response: result.response,
    ...(saved ? { output: { path: saved.path, bytes: saved.bytes } } : {}),
  };
}

export function textToVideoSummary(result: TextToVideoResult, saved?: DownloadResult): string[] {
  return [
    `text-to-video: ${result.status}`,
    `  video: ${result.videoUrl} (${result.contentType}, ${result.fileSize} bytes)`,
    `  seed: ${result.seed}`,
    `  request id: ${result.requestId}`,
    ...(saved ? [`  saved to: ${saved.path} (${saved.bytes} bytes)`] : []),
  ];
}

export function blendJson(result: BlendResult) {
  // The spec marks the task id optional; null says "the gateway sent none" (a warning says it too).
  return {
    operation: result.operation,
    taskId: result.taskId ?? null,
    status: result.status,
    response: result.response,
  };
}

export function blendSummary(result: BlendResult): string[] {
  return [
    `blend: accepted (code ${result.status}), task ${result.taskId ?? '(none given)'}`,
    ...(result.description ? [`  ${result.description}`] : []),
  ];
}
