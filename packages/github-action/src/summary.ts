/**
 * The job summary. GitHub renders it as HTML and escapes nothing, so every value (the gateway's
 * text above all) is escaped here. The API key is never among the values.
 */
import * as core from '@actions/core';
import type { Outputs } from './outputs.js';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const isHttpUrl = (url: string) => /^https?:\/\//i.test(url);

export interface SummaryReport {
  operation: string;
  /** Inputs as used (name, value), the key left out. */
  inputs: [string, string][];
  outputs?: Outputs | undefined;
  links?: { label: string; url: string }[];
  warnings?: readonly string[];
  failure?: { message: string; hint?: string | undefined };
}

const table = (head: [string, string], rows: [string, string][]) =>
  `<table><tr><th>${head[0]}</th><th>${head[1]}</th></tr>${rows
    .map(([name, value]) => `<tr><td><code>${escapeHtml(name)}</code></td><td>${escapeHtml(value)}</td></tr>`)
    .join('')}</table>\n`;

export function renderSummary(report: SummaryReport): string {
  let html = `<h2>mediagw: ${escapeHtml(report.operation)} ${report.failure ? 'failed' : 'succeeded'}</h2>\n`;
  if (report.failure) {
    html += `<p><strong>${escapeHtml(report.failure.message)}</strong></p>\n`;
    if (report.failure.hint) html += `<p>${escapeHtml(report.failure.hint)}</p>\n`;
  }
  for (const link of report.links ?? []) {
    const label = escapeHtml(link.label);
    html += isHttpUrl(link.url)
      ? `<p>${label}: <a href="${escapeHtml(link.url)}">${escapeHtml(link.url)}</a></p>\n`
      : `<p>${label}: ${escapeHtml(link.url)}</p>\n`;
  }
  if (report.warnings?.length) {
    html += `<h3>Warnings</h3>\n<ul>${report.warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join('')}</ul>\n`;
  }
  if (report.outputs) {
    const { response, ...rest } = report.outputs;
    html += '<h3>Outputs</h3>\n';
    html += table(['Output', 'Value'], Object.entries(rest) as [string, string][]);
    if (response !== undefined) {
      const pretty = JSON.stringify(JSON.parse(response), null, 2);
      html += `<details><summary>Gateway response</summary>\n<pre>${escapeHtml(pretty)}</pre>\n</details>\n`;
    }
  }
  html += '<h3>Inputs used</h3>\n';
  html += table(['Input', 'Value'], report.inputs);
  return html;
}

/** Appends the report to the step summary (when the runner gave a summary file). */
export async function writeSummary(report: SummaryReport): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) return;
  await core.summary.addRaw(renderSummary(report)).write();
}
