import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { ServiceHost } from '../../shared/service';
import { CREDENTIAL_TYPE, originOf } from '../../shared/service';
import type { Outcome } from './answer';
import { isStream, parseRecord, readBody, TooLarge } from './answer';
import type { AttemptFailure } from './errors';
import {
	isRead,
	shorten,
	statusFailure,
	thrownFailure,
	timeoutFailure,
	uncertainFailure,
} from './errors';
import type { ServiceContext, ServiceRun } from './run';

/** A request made ready (request.ts): its secrets' `forms`, and the `credentials` an attempt signs with. */
export interface PreparedRequest {
	itemIndex: number;
	method: IHttpRequestMethods;
	host: ServiceHost;
	url: string;
	options: IHttpRequestOptions;
	tenant: string;
	forms: readonly string[];
	credentials: IDataObject;
}
export type Attempt = PreparedRequest & { timeoutMs: number };

/** n8n's own cancel signal (Stop Execution), where the context has one. */
export function cancelSignal(ctx: ServiceContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
}

/** Why no further request of the run starts: n8n stopped the execution, or the run ended. */
export function stoppedReason(ctx: ServiceContext, run: ServiceRun): string | undefined {
	if (cancelSignal(ctx)?.aborted) return 'the execution was stopped';
	const { signal } = run.state.stop;
	return signal.aborted ? (signal.reason as Error).message : undefined;
}

type Headers = Record<string, string | string[] | undefined>;
type RawAnswer = { statusCode: number; headers: Headers; body: unknown };

function discard(answer: RawAnswer | undefined): void {
	if (answer && isStream(answer.body)) answer.body.destroy();
}

const ignore = () => undefined;

function header(headers: Headers, name: string): string | undefined {
	const value = headers[name];
	return Array.isArray(value) ? value[0] : value;
}

/** What an answer says, read before the attempt ends; a redirect is refused: our token stays on our host. */
async function outcomeOf(
	answer: RawAnswer,
	attempt: Attempt,
	maxResponseBytes: number,
	ended: Promise<never>,
): Promise<Outcome> {
	const { method, forms } = attempt;
	const status = answer.statusCode;
	if (status >= 300 && status < 400) {
		discard(answer);
		const location = header(answer.headers, 'location');
		const target = location ? originOf(new URL(location, attempt.url).href) : 'no Location';
		const message = `The service answered with a redirect (HTTP ${status}) to ${target}; redirects are not followed with your token`;
		const failure = { status, message, retryable: false, mayHaveBeenProcessed: method !== 'GET' };
		return { failure };
	}
	const declared = Number(header(answer.headers, 'content-length'));
	if (Number.isFinite(declared) && declared > maxResponseBytes) throw new TooLarge();
	const contentType = header(answer.headers, 'content-type') ?? '';
	const success = status >= 200 && status < 300;
	let text = await Promise.race([readBody(answer.body, maxResponseBytes, contentType), ended]);
	if (typeof text !== 'string' && success) {
		// Not sent again (the same bytes would come); a write may have been processed. Each wrong byte
		// shows as `?`: a U+FFFD would pass for a character the service sent.
		const quoted = shorten(text.text.replace(/\uFFFD/g, '?'), forms);
		const message = `The service answered HTTP ${status} with text that is ${text.problem}: ${quoted}`;
		const failure = { status, message, retryable: false, mayHaveBeenProcessed: !isRead(method) };
		return { failure };
	}
	if (typeof text !== 'string') text = text.text;
	if (success) return parseRecord(method, status, text, contentType, forms);
	const retryAfter = header(answer.headers, 'retry-after');
	return { failure: statusFailure(status, text, retryAfter, method, forms) };
}

/** The reason the Timeout's wait ends with once the attempt is over: made once, not per attempt. */
const ATTEMPT_OVER = new Error('The attempt is over');

/**
 * Sends one attempt and reads its answer before its Timeout passes or n8n cancels the execution: the
 * wait then ends at once and the HTTP client, handed the same signal, closes the connection. The run's
 * own stop does not end an attempt: requests on the wire settle first.
 */
export async function sendAttempt(
	ctx: ServiceContext,
	run: ServiceRun,
	attempt: Attempt,
): Promise<Outcome> {
	const { timeoutMs } = attempt;
	const { maxResponseBytes } = run.settings;
	// `connection` ends the request (its Timeout, n8n's cancel, a failure); `timer` ends the Timeout's
	// wait. A request that succeeded is not aborted: aborting a finished axios request still builds a
	// CanceledError and a socket error (measured: about a quarter of the transport's CPU per create).
	const connection = new AbortController();
	const timer = new AbortController();
	const cancel = cancelSignal(ctx);
	const onCancel = () => {
		connection.abort();
		timer.abort(ATTEMPT_OVER);
	};
	if (cancel?.aborted) onCancel();
	cancel?.addEventListener('abort', onCancel);
	// n8n's sleep: the Timeout runs on the clock every wait runs on (jest's fake one in unit tests).
	let timedOut = false;
	const ended = sleep(timeoutMs, timer.signal).then(() => {
		timedOut = true;
		connection.abort();
		throw new Error(`Timed out after ${timeoutMs} ms`);
	});
	ended.catch(ignore);
	// n8n-core replaces `abortSignal` with the execution's cancel signal on a context that has one:
	// the helper is called on what it reads of the context, so our signal reaches the client.
	const helperContext = { helpers: ctx.helpers, logger: ctx.logger, getNode: () => ctx.getNode() };
	const data = attempt.credentials as ICredentialDataDecryptedObject;
	const pending = ctx.helpers.httpRequestWithAuthentication.call(
		helperContext as unknown as IExecuteFunctions,
		CREDENTIAL_TYPE,
		{
			...attempt.options,
			headers: { ...attempt.options.headers },
			abortSignal: connection.signal,
			// A backstop for a silent socket: the attempt's deadline ends it first.
			timeout: timeoutMs + 1000,
		},
		{ credentialsDecrypted: { id: '', name: '', type: CREDENTIAL_TYPE, data } },
	) as Promise<RawAnswer>;
	let answer: RawAnswer | undefined;
	try {
		answer = await Promise.race([pending, ended]);
		return await outcomeOf(answer, attempt, maxResponseBytes, ended);
	} catch (error) {
		connection.abort();
		// Whatever arrives after the attempt ended is dropped unread.
		if (answer === undefined) pending.then(discard, ignore);
		else discard(answer);
		const ending = { timedOut, stopped: stoppedReason(ctx, run), maxResponseBytes };
		return { failure: failureAfterThrow(error, attempt, answer, ending) };
	} finally {
		cancel?.removeEventListener('abort', onCancel);
		timer.abort(ATTEMPT_OVER);
	}
}

/**
 * What an attempt that threw ends with: its Timeout, the size bound, the run's stop, a network fault or
 * a body cut off. A PUT or DELETE whose answer began with a 2xx was processed, whatever then happened
 * to its body: sending it again could act twice.
 */
function failureAfterThrow(
	error: unknown,
	{ method, timeoutMs }: Attempt,
	answer: RawAnswer | undefined,
	ending: { timedOut: boolean; stopped?: string; maxResponseBytes: number },
): AttemptFailure {
	const status = answer?.statusCode;
	const mayHaveBeenProcessed = method !== 'GET';
	let failure: AttemptFailure;
	if (ending.timedOut) failure = timeoutFailure(method, timeoutMs, !!answer);
	else if (error instanceof TooLarge) {
		const limit = +(ending.maxResponseBytes / 1_048_576).toFixed(2);
		const message = `The service's answer is larger than the Max Response Size of ${limit} MB; the rest was not read`;
		return { message, status, retryable: false, mayHaveBeenProcessed };
	} else if (ending.stopped) {
		const message = `The request was interrupted: ${ending.stopped}`;
		return { message, retryable: false, mayHaveBeenProcessed };
	} else {
		failure = thrownFailure(error, method, timeoutMs);
		// Headers came, then the body broke off: never a "refused" that proves nothing was sent.
		const message =
			'The answer was cut off midway (the connection closed before the whole body came)';
		if (answer)
			failure = uncertainFailure(method, message, { description: failure.description, status });
	}
	if ((method !== 'PUT' && method !== 'DELETE') || !status || status < 200 || status >= 300)
		return failure;
	return {
		...failure,
		message: `${failure.message}, after the service answered HTTP ${status}: it processed the request`,
		retryable: false,
		mayHaveBeenProcessed: true,
	};
}
