import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

export type ServiceContext =
	| IExecuteFunctions
	| IWebhookFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IPollFunctions;

/**
 * How hard to try, from the node's Request Options. `maxResponseBytes` counts after decompression;
 * `maxRequestsPerSecond` bounds the tenant's requests from every run in this process (0: no cap);
 * `maxItemMs` bounds one item's attempts, waits and pages together (0: no bound).
 */
export interface RequestSettings {
	maxAttempts: number;
	maxTotalWaitMs: number;
	initialDelayMs: number;
	timeoutMs: number;
	maxResponseBytes: number;
	maxRequestsPerSecond: number;
	maxItemMs: number;
}

/** The settings of a run with no Request Options set; the node's options show them as defaults. */
export const DEFAULT_SETTINGS: Readonly<RequestSettings> = {
	maxAttempts: 5,
	maxTotalWaitMs: 60_000,
	initialDelayMs: 1000,
	timeoutMs: 30_000,
	maxResponseBytes: 16 * 1024 * 1024,
	maxRequestsPerSecond: 50,
	maxItemMs: 0,
};

/** What every request of one node run shares (request.ts makes it). */
export interface ServiceRun {
	readonly settings: Readonly<RequestSettings>;
	readonly state: {
		/** Loaded once per run: in n8n each load is a query, a decryption and expressions. */
		credentials?: Promise<IDataObject>;
		forms?: { of: IDataObject; forms: readonly string[] };
		/** The n8n credential's id (or name), read once: getNode() copies the whole node. */
		credentialKey?: string;
		/** Aborted when the run stops: waits end at once and no further request starts. */
		readonly stop: AbortController;
	};
	/** Set by startItem (epoch ms, and how messages name it): no wait goes past it, no attempt starts after it. */
	readonly deadline?: { readonly at: number; readonly bound: string };
	/** A model calls the node as a tool: a create it repeats is not sent again (repeats.ts). */
	readonly asTool?: boolean;
}
