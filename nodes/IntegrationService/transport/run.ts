import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../../shared/service';
import { formatSeconds } from './errors';
import { redactError, secretForms } from './secrets';

/** The n8n contexts that send requests through the transport. */
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
		/** The credential's secrets in every form, made once per loaded credential. */
		forms?: { of: IDataObject; forms: readonly string[] };
		/** The n8n credential's id (or name), read once: getNode() copies the whole node. */
		credentialKey?: string;
		/** Aborted when the run stops: waits end at once and no further request starts. */
		readonly stop: AbortController;
	};
	/** Set by startItem (epoch ms, and how messages name it): no wait goes past it, no attempt starts after it. */
	readonly deadline?: { readonly at: number; readonly bound: string };
	/** A model calls the node as a tool: a create it repeats is not sent again (request.ts, sendCreateOnce). */
	readonly asTool?: boolean;
}

/** A node run: its settings, and what its requests share. */
export function newRun(
	settings: Readonly<RequestSettings> = DEFAULT_SETTINGS,
	asTool = false,
): ServiceRun {
	return { settings, asTool, state: { stop: new AbortController() } };
}

/** Ends the run: every wait ends now, and nothing more is sent. */
export function stopRun(run: ServiceRun, reason: string): void {
	if (!run.state.stop.signal.aborted) run.state.stop.abort(new Error(reason));
}

/** The run for one item, with its deadline from now: a caller that waits is not outlived by its requests. */
export function startItem(run: ServiceRun, bound?: string, now = Date.now()): ServiceRun {
	const { maxItemMs } = run.settings;
	if (maxItemMs <= 0) return run;
	const named = bound ?? `the Max Time per Item of ${formatSeconds(maxItemMs)}`;
	return { ...run, deadline: { at: now + maxItemMs, bound: named } };
}

/** The run's credential, loaded on first use; a failed load is not kept, so the next item tries again. */
export function runCredentials(ctx: ServiceContext, run: ServiceRun, itemIndex: number) {
	if (!run.state.credentials) {
		const loading = (ctx as IExecuteFunctions).getCredentials(CREDENTIAL_TYPE, itemIndex);
		run.state.credentials = loading;
		loading.catch(() => {
			if (run.state.credentials === loading) run.state.credentials = undefined;
		});
	}
	return run.state.credentials;
}

/** The credential's secrets in every form, made once per loaded credential. */
export function runForms(run: ServiceRun, credentials: IDataObject): readonly string[] {
	if (run.state.forms?.of !== credentials)
		run.state.forms = { of: credentials, forms: secretForms(credentials) };
	return run.state.forms.forms;
}

/** Takes the credential's secrets out of an error leaving the node, an input error included. */
export async function redactRunError(
	ctx: ServiceContext,
	run: ServiceRun,
	itemIndex: number,
	error: unknown,
): Promise<void> {
	let forms: readonly string[] = [];
	try {
		forms = runForms(run, await runCredentials(ctx, run, itemIndex));
	} catch {
		// The failed load is its own error elsewhere.
	}
	redactError(error, forms);
}
