import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE, originOf } from '../../shared/service';
import type { Outcome } from './answer';
import { parseRecord, Undecodable, undecodableFailure } from './answer';
import { isStream, readBody, TooLarge } from './body';
import { watchDeadline } from './deadlines';
import type { AttemptFailure } from './errors';
import { statusFailure, thrownFailure, timeoutFailure, uncertainFailure } from './errors';

export { readBody, TooLarge } from './body';

/** The n8n contexts that send requests through the transport: a node run, a trigger's webhook or its activation. */
export type ServiceContext = IExecuteFunctions | IWebhookFunctions | IHookFunctions;

/** What one attempt needs: the prepared request, the credential it goes out with, and its limits. */
export interface AttemptRequest {
	method: IHttpRequestMethods;
	url: string;
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

function header(headers: Headers, name: string): string | undefined {
	const value = headers[name] ?? headers[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}

/**
 * What an answer says, read within the attempt's deadline (`ended`): a redirect is refused, a 2xx is
 * a record or a text (answer.ts), anything else a failure in the service's words. The body is read as
 * its charset; one that is not text fails a 2xx and is shown with U+FFFD in an error's words.
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
		const target = location ? originOf(new URL(location, request.url).href) : 'no Location';
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

/** Why an attempt's wait for its answer ended early: its deadline, or Stop Execution. */
class AttemptEnded extends Error {}

/**
 * Sends one attempt and reads its whole answer within the Timeout, one deadline for headers and body
 * together. One signal ends the attempt (its deadline or Stop Execution): the wait
 * leaves at once, and the HTTP client closes the connection, whether the headers came or not.
 * Redirects are never followed: our token and body never reach a host the credential does not name.
 */
export async function sendAttempt(ctx: ServiceContext, request: AttemptRequest): Promise<Outcome> {
	const { timeoutMs } = request;
	const attempt = new AbortController();
	// Read once: each read of `signal` is a call into Node's AbortController.
	const { signal } = attempt;
	// The wait ends with the attempt: ended by its deadline or Stop Execution (`endAttempt`), never
	// otherwise, so no listener on its own signal is needed.
	let endWait: () => void = () => undefined;
	const ended = new Promise<never>((_resolve, reject) => {
		endWait = () => reject(new AttemptEnded());
	});
	ended.catch(() => undefined);
	const endAttempt = () => {
		attempt.abort();
		endWait();
	};
	// Stop Execution ends the attempt; the run's own stop does not: requests on the wire settle first.
	const cancel = cancelSignal(ctx);
	if (cancel?.aborted) endAttempt();
	else cancel?.addEventListener('abort', endAttempt, { once: true });
	let timedOut = false;
	const settle = watchDeadline(timeoutMs, () => {
		timedOut = true;
		endAttempt();
	});
	// n8n-core hands the context's cancel signal to the HTTP client as its abort signal. This attempt's
	// context answers with the attempt's own signal, so the deadline closes the connection too: once
	// the headers are in, the client ignores its own timeout, and the body's stream cannot be closed
	// from here (the client wraps it).
	const attemptContext = Object.create(ctx, {
		getExecutionCancelSignal: { value: () => signal },
	}) as ServiceContext;
	const pending = ctx.helpers.httpRequestWithAuthentication.call(
		attemptContext,
		CREDENTIAL_TYPE,
		request.options,
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
		if (answer === undefined) pending.then(discard, () => undefined);
		return { failure: failureAfterThrow(error, request, answer, timedOut) };
	} finally {
		settle();
		cancel?.removeEventListener('abort', endAttempt);
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
