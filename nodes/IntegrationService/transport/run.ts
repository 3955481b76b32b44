import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../../shared/service';
import type { ServiceContext } from './attempt';
import { cancelSignal } from './attempt';
import { formatSeconds } from './errors';
import { redactError } from './errorRedaction';
import { secretForms } from './secrets';

/**
 * A node run as the transport sees it: its settings, what its requests share (the credential, the stop
 * signal), and each item's deadline.
 */

/** How hard to try: the node reads it from its Request Options once per run. */
export interface RequestSettings {
	maxAttempts: number;
	maxTotalWaitMs: number;
	initialDelayMs: number;
	timeoutMs: number;
	/** Largest answer read, counted after decompression. */
	maxResponseBytes: number;
	/** The most requests of the tenant the service receives in any second, from every run in this process together (pace.ts); 0 means no cap. */
	maxRequestsPerSecond: number;
	/** The most time one item's operation may take, every attempt, wait and page together (startItem); 0 means no bound. */
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

/** Why a run stopped early; requests not yet sent are then never sent. */
class RunStopped extends Error {}

/** When an item's operation must be over, and how messages name that bound. */
export interface ItemDeadline {
	/** Epoch ms. */
	readonly at: number;
	/** E.g. "the Max Time per Item of 45 s". */
	readonly bound: string;
}

/** What every request of one node run shares: its settings, and state that changes while it runs. */
export interface ServiceRun {
	readonly settings: Readonly<RequestSettings>;
	readonly state: {
		/** The credential, loaded once per run: in the n8n app each load is a query, a decryption and expressions. */
		credentials?: Promise<IDataObject>;
		/** The n8n credential's id (or name), read once: n8n's getNode() copies the whole node per call. */
		credentialKey?: string;
		/** Aborted when the run stops: waits end at once and no further request starts. */
		readonly stop: AbortController;
	};
	/** Set by startItem: no wait goes past it and no attempt starts after it. */
	readonly deadline?: ItemDeadline;
	/** A model calls the node as a tool: a create it repeats is not sent again (repeats.ts). */
	readonly asTool?: boolean;
}

export function newRun(
	settings: Readonly<RequestSettings> = DEFAULT_SETTINGS,
	asTool = false,
): ServiceRun {
	return { settings, asTool, state: { stop: new AbortController() } };
}

/** Ends the run: every wait ends now, and nothing more is sent. */
export function stopRun(run: ServiceRun, reason: string): void {
	if (!run.state.stop.signal.aborted) run.state.stop.abort(new RunStopped(reason));
}

/**
 * The run as one item's operation sees it, its deadline counted from now: a caller that waits for the
 * answer (an MCP client, a webhook sender) must not be outlived by its requests. The settings, the
 * credential and the stop signal stay shared with the run.
 */
export function startItem(run: ServiceRun, bound?: string, now = Date.now()): ServiceRun {
	const { maxItemMs } = run.settings;
	if (maxItemMs <= 0) return run;
	const named = bound ?? `the Max Time per Item of ${formatSeconds(maxItemMs)}`;
	return { ...run, deadline: { at: now + maxItemMs, bound: named } };
}

/** The time left before the item's deadline (Infinity without one). */
export function timeLeft(run: ServiceRun, now = Date.now()): number {
	return run.deadline === undefined ? Infinity : run.deadline.at - now;
}

/** The reason the run must not send anything more, if any. */
export function stoppedReason(ctx: ServiceContext, run: ServiceRun): string | undefined {
	if (cancelSignal(ctx)?.aborted) return 'the execution was stopped';
	const { signal } = run.state.stop;
	return signal.aborted ? (signal.reason as Error).message : undefined;
}

/**
 * A new signal that fires when the run stops or n8n cancels the execution. AbortSignal.any adds no
 * listener to its sources, so any number of waits may be pending at once without a leak warning.
 */
function runSignal(ctx: ServiceContext, run: ServiceRun): AbortSignal {
	return AbortSignal.any(
		[run.state.stop.signal, cancelSignal(ctx)].filter((s): s is AbortSignal => s !== undefined),
	);
}

/** Waits `ms`, or less if the run stops or the execution is cancelled; says whether the full wait passed. */
export async function waitFor(ctx: ServiceContext, run: ServiceRun, ms: number): Promise<boolean> {
	if (ms <= 0) return stoppedReason(ctx, run) === undefined;
	try {
		await sleep(ms, runSignal(ctx, run));
		return true;
	} catch {
		return false;
	}
}

/** The credential for this run, loaded on first use and then reused for every item and page (the same promise). */
export function runCredentials(
	ctx: ServiceContext,
	run: ServiceRun,
	itemIndex: number,
): Promise<IDataObject> {
	if (!run.state.credentials) {
		const loading = (ctx as IExecuteFunctions).getCredentials(
			CREDENTIAL_TYPE,
			itemIndex,
		) as Promise<IDataObject>;
		run.state.credentials = loading;
		// A failed load (e.g. a credential expression) is not kept: the next item tries again.
		loading.catch(() => {
			if (run.state.credentials === loading) run.state.credentials = undefined;
		});
	}
	return run.state.credentials;
}

/**
 * Takes the run's credential secrets out of an error about to leave the node, an input error thrown
 * before anything was sent included (a secret pasted into a field, or a model's argument, comes back
 * in the message that names the bad value). A credential that cannot load leaves the general forms
 * (bearer tokens, JWTs) to be taken out.
 */
export async function redactRunError(
	ctx: ServiceContext,
	run: ServiceRun,
	itemIndex: number,
	error: unknown,
): Promise<void> {
	let forms: readonly string[] = [];
	try {
		forms = secretForms(await runCredentials(ctx, run, itemIndex));
	} catch {
		// The failure to load is its own error elsewhere; this error still loses every JWT and bearer token.
	}
	redactError(error, forms);
}
