import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { DEFAULT_SETTINGS, type RequestSettings } from './options';

export const CREDENTIAL_TYPE = 'integrationServiceApi';

/** The n8n contexts that send requests through the transport: a node run, a trigger's webhook or its activation. */
export type ServiceContext = IExecuteFunctions | IWebhookFunctions | IHookFunctions;

/** Why a run stopped early; requests not yet sent are then never sent. */
export class RunStopped extends Error {}

/** What every request of one node run shares: its settings, and state that changes while it runs. */
export interface ServiceRun {
	readonly settings: Readonly<RequestSettings>;
	readonly state: {
		/** A 429 anywhere pauses every request of the run until this time (epoch ms). */
		pausedUntil: number;
		/** The earliest time the next request may start, under Max Requests Per Second (epoch ms). */
		nextStartAt: number;
		/** The credential, loaded once per run: in the n8n app each load is a query, a decryption and expressions. */
		credentials?: Promise<IDataObject>;
		/** Aborted when the run stops: waits end at once and no further request starts. */
		readonly stop: AbortController;
	};
}

export function newRun(settings: Readonly<RequestSettings> = DEFAULT_SETTINGS): ServiceRun {
	return { settings, state: { pausedUntil: 0, nextStartAt: 0, stop: new AbortController() } };
}

/** Ends the run: every wait ends now, and nothing more is sent. */
export function stopRun(run: ServiceRun, reason: string): void {
	if (!run.state.stop.signal.aborted) run.state.stop.abort(new RunStopped(reason));
}

/** n8n's own cancel signal (Stop Execution), where the context has one. */
export function cancelSignal(ctx: ServiceContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
}

/** The reason the run must not send anything more, if any. */
export function stoppedReason(ctx: ServiceContext, run: ServiceRun): string | undefined {
	if (cancelSignal(ctx)?.aborted) return 'the execution was stopped';
	const { signal } = run.state.stop;
	return signal.aborted ? (signal.reason as Error).message : undefined;
}

/** A signal that fires when the run stops or n8n cancels the execution; `done()` removes the listeners. */
export function runSignal(ctx: ServiceContext, run: ServiceRun): { signal: AbortSignal; done(): void } {
	const controller = new AbortController();
	const sources = [run.state.stop.signal, cancelSignal(ctx)].filter((s): s is AbortSignal => s !== undefined);
	const onAbort = () => controller.abort();
	for (const source of sources) {
		if (source.aborted) controller.abort();
		else source.addEventListener('abort', onAbort, { once: true });
	}
	return {
		signal: controller.signal,
		done: () => sources.forEach((source) => source.removeEventListener('abort', onAbort)),
	};
}

/** Waits `ms`, or less if the run stops or the execution is cancelled; says whether the full wait passed. */
export async function waitFor(ctx: ServiceContext, run: ServiceRun, ms: number): Promise<boolean> {
	if (ms <= 0) return stoppedReason(ctx, run) === undefined;
	const { signal, done } = runSignal(ctx, run);
	try {
		await sleep(ms, signal);
		return true;
	} catch {
		return false;
	} finally {
		done();
	}
}

/** Reserves the next start slot under Max Requests Per Second and returns how long to wait for it. */
export function reserveStart(run: ServiceRun, now = Date.now()): number {
	const rate = run.settings.maxRequestsPerSecond;
	if (rate <= 0) return 0;
	const start = Math.max(now, run.state.nextStartAt);
	run.state.nextStartAt = start + 1000 / rate;
	return start - now;
}

/** The credential for this run, loaded on first use and then reused for every item and page. */
export async function runCredentials(ctx: ServiceContext, run: ServiceRun, itemIndex: number): Promise<IDataObject> {
	if (!run.state.credentials) {
		const loading = (ctx as IExecuteFunctions).getCredentials(CREDENTIAL_TYPE, itemIndex) as Promise<IDataObject>;
		run.state.credentials = loading;
		// A failed load (e.g. a credential expression) is not kept: the next item tries again.
		loading.catch(() => {
			if (run.state.credentials === loading) run.state.credentials = undefined;
		});
	}
	return await run.state.credentials;
}
