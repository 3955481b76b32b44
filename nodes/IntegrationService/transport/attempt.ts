import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { CREDENTIAL_TYPE, originOf } from '../../shared/service';
import type { Outcome } from './answer';
import {
	isStream,
	parseRecord,
	readBody,
	TooLarge,
	Undecodable,
	undecodableFailure,
} from './answer';
import type { AttemptFailure } from './errors';
import { statusFailure, thrownFailure, timeoutFailure, uncertainFailure } from './errors';

/**
 * One attempt: the request sent once and its whole answer read within the attempt's Timeout, headers
 * and body together. Redirects are never followed: our token and body never reach a host the
 * credential does not name.
 */

/** The n8n contexts that send requests through the transport, as n8n hands them to the node. */
export type ServiceContext =
	| IExecuteFunctions
	| IWebhookFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IPollFunctions;

/** What one attempt needs: the prepared request, the credential it goes out with, and its limits. */
export interface AttemptRequest {
	method: IHttpRequestMethods;
	options: IHttpRequestOptions;
	/** The credential, with `sessionToken` set to the token this attempt sends. */
	credentials: IDataObject;
	secretForms: readonly string[];
	timeoutMs: number;
	/** Largest answer read, counted after decompression. */
	maxResponseBytes: number;
	/** Why the run stopped, if it did: an attempt ended by it says so. */
	stoppedReason(): string | undefined;
}

/** n8n's own cancel signal (Stop Execution), where the context has one. */
export function cancelSignal(ctx: ServiceContext): AbortSignal | undefined {
	return 'getExecutionCancelSignal' in ctx ? ctx.getExecutionCancelSignal() : undefined;
}

type Headers = Record<string, string | string[] | undefined>;

interface RawAnswer {
	statusCode: number;
	headers: Headers;
	body: unknown;
}

function discard(answer: RawAnswer | undefined): void {
	if (answer && isStream(answer.body)) answer.body.destroy();
}

const ignore = () => undefined;

function header(headers: Headers, name: string): string | undefined {
	const value = headers[name];
	return Array.isArray(value) ? value[0] : value;
}

/**
 * What an answer says, read before the attempt ends (`ended`): a redirect is refused, a 2xx is a
 * record or a text (answer.ts), anything else a failure in the service's words.
 */
async function outcomeOf(
	answer: RawAnswer,
	request: AttemptRequest,
	ended: Promise<never>,
): Promise<Outcome> {
	const { method, secretForms: forms, maxResponseBytes } = request;
	const status = answer.statusCode;
	if (status >= 300 && status < 400) {
		discard(answer);
		const location = header(answer.headers, 'location');
		const url = request.options.url;
		const target = location ? originOf(new URL(location, url).href) : 'no Location';
		const message = `The service answered with a redirect (HTTP ${status}) to ${target}; redirects are not followed with your token`;
		return {
			failure: { status, message, retryable: false, mayHaveBeenProcessed: method !== 'GET' },
		};
	}
	const declared = Number(header(answer.headers, 'content-length'));
	if (Number.isFinite(declared) && declared > maxResponseBytes) throw new TooLarge();
	const contentType = header(answer.headers, 'content-type') ?? '';
	const success = status >= 200 && status < 300;
	let text = await Promise.race([readBody(answer.body, maxResponseBytes, contentType), ended]);
	if (text instanceof Undecodable) {
		if (success) return { failure: undecodableFailure(method, status, text, forms) };
		text = text.text;
	}
	if (success) return parseRecord(method, status, text, contentType, forms);
	return {
		failure: statusFailure(status, text, header(answer.headers, 'retry-after'), method, forms),
	};
}

/** Why an attempt ended before its answer: its Timeout passed. */
class TimedOut extends Error {}

/**
 * Sends one attempt and reads its answer before its Timeout passes or n8n cancels the execution,
 * whichever comes first: the wait then ends at once, and the HTTP client, handed the same signal,
 * closes the connection. The run's own stop does not end an attempt: requests on the wire settle first.
 */
export async function sendAttempt(ctx: ServiceContext, request: AttemptRequest): Promise<Outcome> {
	const { timeoutMs } = request;
	const attempt = new AbortController();
	const cancel = cancelSignal(ctx);
	const signal = cancel ? AbortSignal.any([attempt.signal, cancel]) : attempt.signal;
	// n8n's sleep: the Timeout runs on the same clock as every wait (jest's fake one in unit tests).
	let timedOut = false;
	const ended = sleep(timeoutMs, signal).then(() => {
		timedOut = true;
		attempt.abort();
		throw new TimedOut();
	});
	ended.catch(ignore);
	// n8n-core sets `abortSignal` to the execution's cancel signal whenever the context it is called on
	// has one, which would drop the Timeout: the helper is called on what it reads of a context (the
	// helpers, the logger, the node), so the attempt's signal, which carries Stop Execution, closes
	// the connection, also after the headers came.
	const helperContext = { helpers: ctx.helpers, logger: ctx.logger, getNode: () => ctx.getNode() };
	const pending = ctx.helpers.httpRequestWithAuthentication.call(
		helperContext as unknown as IExecuteFunctions,
		CREDENTIAL_TYPE,
		{
			...request.options,
			headers: { ...request.options.headers },
			abortSignal: signal,
			// The client's own timeout is only a backstop for a silent socket: the attempt's deadline ends it.
			timeout: timeoutMs + 1000,
		},
		{
			credentialsDecrypted: {
				id: '',
				name: '',
				type: CREDENTIAL_TYPE,
				data: request.credentials as ICredentialDataDecryptedObject,
			},
		},
	) as Promise<RawAnswer>;
	let answer: RawAnswer | undefined;
	try {
		answer = await Promise.race([pending, ended]);
		return await outcomeOf(answer, request, ended);
	} catch (error) {
		// Whatever arrives after the attempt ended is dropped unread.
		if (answer === undefined) pending.then(discard, ignore);
		else discard(answer);
		return { failure: failureAfterThrow(error, request, answer, timedOut) };
	} finally {
		// Ends the Timeout's sleep.
		attempt.abort();
	}
}

/** What an attempt that threw ends with: its deadline, the size bound, the run's stop, or a network fault. */
function failureAfterThrow(
	error: unknown,
	request: AttemptRequest,
	answer: RawAnswer | undefined,
	timedOut: boolean,
): AttemptFailure {
	const { method, timeoutMs, maxResponseBytes } = request;
	const status = answer?.statusCode;
	if (timedOut) return processedWrite(method, status, timeoutFailure(method, timeoutMs, !!answer));
	if (error instanceof TooLarge) {
		const limit = +(maxResponseBytes / 1_048_576).toFixed(2);
		const message = `The service's answer is larger than the Max Response Size of ${limit} MB; the rest was not read`;
		return {
			message,
			status: answer?.statusCode,
			retryable: false,
			mayHaveBeenProcessed: method !== 'GET',
		};
	}
	const stopped = request.stoppedReason();
	if (stopped)
		return {
			message: `The request was interrupted: ${stopped}`,
			retryable: false,
			mayHaveBeenProcessed: method !== 'GET',
		};
	const failure = thrownFailure(error, method, timeoutMs);
	if (answer === undefined) return failure;
	// Headers came, then the body broke off: a network fault, never a "refused" that proves nothing was sent.
	const cutOff = uncertainFailure(
		method,
		'The answer was cut off midway (the connection closed before the whole body came)',
		{ description: failure.description, status },
	);
	return processedWrite(method, status, cutOff);
}

/**
 * A write whose answer began with a 2xx status was processed, whatever then happened to its body (cut
 * off, silent, not inflating): sending it again could delete, overwrite or create twice, and would
 * report the processed request by the second answer (a DELETE's 404). A failure that is not
 * retried already (a POST's) keeps its words; a DELETE's (errors.ts: never retried once sent) still
 * says the 2xx meant it was processed. Only for faults of the connection, not the size bound or a stop.
 */
function processedWrite(
	method: IHttpRequestMethods,
	status: number | undefined,
	failure: AttemptFailure,
): AttemptFailure {
	const read = method === 'GET' || method === 'HEAD';
	const told = !failure.retryable && method !== 'DELETE';
	if (read || told || status === undefined || status < 200 || status >= 300) return failure;
	return {
		...failure,
		message: `${failure.message}, after the service answered HTTP ${status}: it processed the request`,
		retryable: false,
		mayHaveBeenProcessed: true,
	};
}
