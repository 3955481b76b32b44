import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { optionalText } from '../helpers/validation';

/**
 * Per-node and per-item override of X-Service-Credential-Id: one n8n credential serves many end
 * users' connections (decisions.md). Shown for the resources on the CRM, LOS and calendar hosts.
 */
export const credentialIdOverride: INodeProperties = {
	displayName: 'Credential ID',
	name: 'credentialId',
	type: 'string',
	default: '',
	placeholder: 'e.g. {{ $json.credentialId }}',
	description:
		"Which connected system this call reads or writes (sent in a request header). Leave empty to use the Default Credential ID of the credential; use an expression to pick one per item.",
	displayOptions: { show: { resource: ['person', 'borrower', 'document', 'webhook'] } },
};

/** The item's Credential ID override, or undefined for the credential's default. */
export function credentialIdOverrideFor(ctx: IExecuteFunctions, itemIndex: number): string | undefined {
	return optionalText(ctx, itemIndex, 'Credential ID', ctx.getNodeParameter(credentialIdOverride.name, itemIndex, ''));
}

/** Retry, timeout and concurrency settings, shared by every operation. */
export const requestOptions: INodeProperties = {
	displayName: 'Request Options',
	name: 'requestOptions',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Concurrency',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 50 },
			default: 1,
			description:
				'How many items to send at once. Output keeps the input order. A rate limit (429) pauses all of them.',
		},
		{
			displayName: 'Initial Retry Delay (Ms)',
			name: 'initialRetryDelay',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 1000,
			description:
				'First wait before a retry when the service gives no Retry-After; each further retry waits about twice as long. A 409 (data not ready yet) waits at least 30 times this.',
		},
		{
			displayName: 'Max Attempts',
			name: 'maxAttempts',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 20 },
			default: 5,
			description:
				'How many times to send a request at most. 429 and 409 are retried for every operation; server errors, timeouts and dropped connections only for Get Many and Update, never for Create.',
		},
		{
			displayName: 'Max Total Retry Wait (Seconds)',
			name: 'maxTotalWait',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 60,
			description: 'Stop retrying a request once its waits would add up to more than this',
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1 },
			default: 30,
			description: 'How long to wait for the service to answer one request',
		},
	],
};
