/**
 * Shared pieces of the reliability suites: fast retry settings, one valid parameter set per
 * operation, arrival times of requests at the sandbox, and a listener that proves nothing reached it.
 */
import * as http from 'http';

import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import type { RecordedRequest, Sandbox } from '../sandbox/server';

/** Retry settings that keep the suites fast: 10 ms first backoff; the Timeout out of reach (a test of it sets its own). */
export const FAST = { maxAttempts: 3, initialRetryDelay: 10, maxTotalWait: 10, timeout: 600 };

export const delay = async (ms: number) =>
	await new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls until `check` holds (or the time is up), for effects that land after the node gave up. */
export async function eventually(check: () => boolean, timeoutMs = 3000): Promise<boolean> {
	const end = Date.now() + timeoutMs;
	while (!check()) {
		if (Date.now() > end) return false;
		await delay(20);
	}
	return true;
}

export const DOCUMENT_REQUIRED: INodeParameters = {
	name: 'W-2 2024.pdf',
	category: 'income',
	status: 'received',
	type: 'W2',
	fileUrl: 'https://files.example.test/w2.pdf',
	mimeType: 'application/pdf',
	fileSignature: 'sha256-abc',
	folderId: 'folder-1',
};

/** One valid parameter set per operation of the node (as the editor stores them). */
export const VALID: Record<string, INodeParameters> = {
	'person.create': {
		resource: 'person',
		operation: 'create',
		firstName: 'Ada',
		lastName: 'Lovelace',
	},
	'person.getAll': { resource: 'person', operation: 'getAll', returnAll: false, limit: 5 },
	'authorizationLink.create': {
		resource: 'authorizationLink',
		operation: 'create',
		appKey: 'my-crm-app',
	},
	'credential.create': {
		resource: 'credential',
		operation: 'create',
		appKey: 'my-crm-app',
		userInputs: '{"apiKey": "k-1"}',
	},
	'credential.update': {
		resource: 'credential',
		operation: 'update',
		credentialToUpdate: 'cred-other',
		entitiesToSync: { notes: true },
	},
	'borrower.update': {
		resource: 'borrower',
		operation: 'update',
		borrowerId: 'b-1',
		updateFields: { name: 'Jane Roe' },
	},
	'document.create': { resource: 'document', operation: 'create', ...DOCUMENT_REQUIRED },
	'webhook.update': {
		resource: 'webhook',
		operation: 'update',
		webhookId: 'w-1',
		updateFields: { url: 'https://hooks.example.test/changed' },
	},
};

/**
 * Arrival time of every request the sandbox logs, and an optional hook that runs before the sandbox
 * picks a fault for it (so a test can fault exactly the n-th request).
 */
export interface Arrivals {
	at(request: RecordedRequest): number;
	onArrival: ((request: RecordedRequest, position: number) => void) | undefined;
	restore(): void;
}

export function trackArrivals(sandbox: Sandbox): Arrivals {
	const times = new WeakMap<RecordedRequest, number>();
	const log = sandbox.requests;
	const push = log.push;
	const arrivals: Arrivals = {
		at: (request) => times.get(request) ?? NaN,
		onArrival: undefined,
		restore: () => {
			delete (log as { push?: unknown }).push;
		},
	};
	// The sandbox logs a request, then picks its fault: a fault injected here applies to this request.
	log.push = function (...records: RecordedRequest[]): number {
		for (const record of records) {
			times.set(record, Date.now());
			arrivals.onArrival?.(record, log.length + 1);
		}
		return push.apply(log, records);
	};
	return arrivals;
}

/** A listener on another origin that counts what reaches it (it must stay at zero). */
export async function startWitness(): Promise<{
	url: string;
	hits: string[];
	close(): Promise<void>;
}> {
	const hits: string[] = [];
	const server = http.createServer((req, res) => {
		hits.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end('{"people":[]}');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	const port = typeof address === 'object' && address ? address.port : 0;
	return {
		url: `http://127.0.0.1:${port}`,
		hits,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

export function isErrorItem(item: INodeExecutionData): boolean {
	return (
		typeof (item.json as IDataObject).error === 'string' &&
		Object.keys(item.json).every((key) => ['error', 'details'].includes(key))
	);
}

export function pairedIndex(item: INodeExecutionData): number {
	const paired = item.pairedItem;
	if (paired === undefined || Array.isArray(paired) || typeof paired === 'number') {
		throw new Error(`item without a single pairedItem: ${JSON.stringify(paired)}`);
	}
	return paired.item;
}
