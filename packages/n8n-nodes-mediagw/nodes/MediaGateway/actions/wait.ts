/**
 * Wait for Result. Submitting: the notify hook is this execution's resume URL; the task ID goes into
 * the execution's custom data (n8n lists it with the execution); the execution waits. Resuming: only
 * a notification that names that task and a final state resumes it; progress and strangers get an
 * answer and the execution keeps waiting.
 *
 * n8n resumes a waiting node without running it (n8n-core's WorkflowExecute: the node is disabled
 * and hands on what it was given; on a webhook, what `webhook()` returned): a resumed node cannot
 * throw. So a failed task and a time-out come out as error items, json `{error, details}` (n8n's
 * shape of an error item): n8n itself routes them to the error output when the node has one ("On
 * Error: Continue (using error output)"); otherwise the workflow can end on them (Stop and Error).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { type AnyOperation, readNotification } from '@mediagw/core/protocol';
import { notificationRule } from '../../shared/notification';
import { WAIT_DEFAULTS } from '../description/wait';
import { downloadFile } from '../helpers/download';
import { executeItem, type ItemContext } from './execute';

/** Custom data key of the awaited task ID. */
export const TASK_KEY = 'mediagw_task_id';
const MAX_NOTIFICATION_BYTES = 1024 * 1024;

const FAN_OUT =
	'n8n resumes a waiting execution once, so one execution waits for one task. For many, put this node in a sub-workflow (Execute Workflow Trigger -> Media Gateway) and call it from an Execute Workflow node with "Mode: Run once for each item" and "Wait For Sub-Workflow Completion" off: each item then waits in its own execution (see examples/n8n/blend-wait-fan-out.json).';

export async function submitAndWait(this: IExecuteFunctions, op: AnyOperation, context: ItemContext): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const node = this.getNode();
	if (items.length !== 1) {
		throw new NodeOperationError(node, `Wait for Result takes one item; this run has ${items.length}`, { description: FAN_OUT });
	}
	const hook = op.notifyField as string;
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	if (options[hook]) {
		throw new NodeOperationError(node, 'Notify Hook and Wait for Result are both set', {
			description: "Wait for Result sets the notify hook to this execution's resume URL: remove the Notify Hook option, or turn Wait for Result off.",
			itemIndex: 0,
		});
	}
	const resumeUrl = String(this.evaluateExpression('{{ $execution.resumeUrl }}', 0) ?? '');
	if (!/^https?:\/\//.test(resumeUrl)) {
		throw new NodeOperationError(node, 'This n8n gives no resume URL to wait on', { description: `Got "${resumeUrl}". Set N8N_WEBHOOK_URL (or WEBHOOK_URL) so the gateway can reach n8n.` });
	}
	const submitted = await executeItem.call(this, op, 0, context, { [hook]: resumeUrl });
	const taskId = submitted.json.taskId;
	if (typeof taskId !== 'string' || !taskId) {
		throw new NodeOperationError(node, 'The gateway accepted the task but sent no task ID: its notification could not be told apart', { itemIndex: 0 });
	}
	this.customData.set(TASK_KEY, taskId);
	const waitOptions = this.getNodeParameter('waitOptions', 0, {}) as IDataObject;
	const minutes = Math.max(1, Number(waitOptions.timeLimitMinutes ?? WAIT_DEFAULTS.timeLimitMinutes) || WAIT_DEFAULTS.timeLimitMinutes);
	// What n8n hands on if the time limit passes first: the node's input. Make it the time-out's error item.
	const timedOut = `Timed out after ${minutes} minute(s) waiting for the notification of ${op.name} task ${taskId}; the task may still finish: check with the gateway before submitting again`;
	items[0] = { json: { error: timedOut, details: { taskId, timedOut: true } }, pairedItem: { item: 0 } };
	await this.putExecutionToWait(new Date(Date.now() + minutes * 60_000));
	return [[{ json: { ...submitted.json, waiting: true }, pairedItem: { item: 0 } }]];
}

type ResponseObject = ReturnType<IWebhookFunctions['getResponseObject']>;

/** Answers the call and keeps the execution waiting. */
function keepWaiting(response: ResponseObject, status: number, message: string): IWebhookResponseData {
	response.writeHead(status, { 'content-type': 'application/json' });
	response.end(JSON.stringify({ code: status, message }));
	return { noWebhookResponse: true };
}

export async function resumeOnNotification(this: IWebhookFunctions, op: AnyOperation): Promise<IWebhookResponseData> {
	const request = this.getRequestObject();
	const response = this.getResponseObject();
	const expected = this.customData.get(TASK_KEY);
	const body = this.getBodyData() as unknown;
	const size = Number(request.headers['content-length']) || JSON.stringify(body ?? '').length;
	if (size > MAX_NOTIFICATION_BYTES) return keepWaiting(response, 413, `The body is larger than ${MAX_NOTIFICATION_BYTES} bytes`);
	if (!/\bjson\b/i.test(String(request.headers['content-type'] ?? '')) || !body || typeof body !== 'object') {
		return keepWaiting(response, 400, 'Expected a JSON notification');
	}
	const waitOptions = this.getNodeParameter('waitOptions', {}) as IDataObject;
	const facts = readNotification(body, notificationRule(waitOptions));
	if (expected === undefined || facts.taskId !== expected) {
		return keepWaiting(response, 409, 'This execution waits for another task; nothing was resumed');
	}
	if (facts.outcome === 'pending') return keepWaiting(response, 202, 'Noted; waiting for the final state');

	const notification = body as IDataObject;
	if (facts.outcome === 'failure') {
		const failed = `${op.name} task ${expected} failed: ${facts.reason ?? facts.status}`;
		const details = { taskId: expected, status: facts.status, notification };
		return { workflowData: [[{ json: { error: failed, details }, pairedItem: { item: 0 } }]] };
	}
	const item: INodeExecutionData = {
		json: { operation: op.name, taskId: expected, status: facts.status, resultUrl: facts.resultUrl, notification },
		pairedItem: { item: 0 },
	};
	const download = waitOptions.downloadResult ?? WAIT_DEFAULTS.downloadResult;
	if (download && facts.resultUrl) {
		const property = String(waitOptions.resultPropertyName || WAIT_DEFAULTS.resultPropertyName);
		try {
			const file = { url: facts.resultUrl, kind: op.kind, name: `${op.name}-${expected}` } as const;
			item.binary = { [property]: await downloadFile.call(this, file, op.name) };
		} catch (error) {
			item.json.error = (error as Error).message;
		}
	}
	return { workflowData: [[item]] };
}
