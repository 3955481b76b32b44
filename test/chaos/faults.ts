/**
 * The faults the chaos service draws from, what each one means for the node's promises, and the raw
 * bytes each one writes. One fault per request, picked by a seeded generator, so a seed replays a run.
 */
import type { Socket } from 'net';

import type { IDataObject } from 'n8n-workflow';

/** What a request is to the service: which faults it may draw. */
export type RequestKind = 'write' | 'page' | 'record';

export type Fault =
	| 'healthy'
	| '500'
	| '503'
	| '429'
	| '409'
	| 'reset after read'
	| 'silent after headers'
	| 'slow drip'
	| 'not HTTP'
	| 'oversized headers'
	| 'redirect away'
	| '2xx not a record'
	| 'echo token'
	// Round 3:
	| 'text/plain 2xx'
	| 'invalid UTF-8'
	| 'Latin-1 declared'
	| 'secret in 2xx'
	| 'token in nextLink'
	| 'far Retry-After';

interface Traits {
	/** The requests that may draw it (every kind when not given). */
	kinds?: RequestKind[];
	/** Needs a page that links to the next one. */
	needsNextLink?: true;
	/** The whole answer came (a 2xx or a redirect): the request must never be sent again, whatever its method. */
	final: boolean;
	/** After it a POST or PATCH may have been processed: never sent again. */
	mayHaveBeenProcessed: boolean;
	/** The request succeeds when this was its last answer (either: a success or an error may be right). */
	success: boolean | 'either';
}

export const TRAITS: Record<Fault, Traits> = {
	healthy: { final: true, mayHaveBeenProcessed: true, success: true },
	'500': { final: false, mayHaveBeenProcessed: true, success: false },
	'503': { final: false, mayHaveBeenProcessed: true, success: false },
	'429': { final: false, mayHaveBeenProcessed: false, success: false },
	'409': { final: false, mayHaveBeenProcessed: false, success: false },
	'reset after read': { final: false, mayHaveBeenProcessed: true, success: false },
	'silent after headers': { final: false, mayHaveBeenProcessed: true, success: false },
	'slow drip': { final: false, mayHaveBeenProcessed: true, success: false },
	'not HTTP': { final: false, mayHaveBeenProcessed: true, success: false },
	'oversized headers': { final: false, mayHaveBeenProcessed: true, success: false },
	'redirect away': { final: true, mayHaveBeenProcessed: true, success: false },
	'2xx not a record': { final: true, mayHaveBeenProcessed: true, success: false },
	'echo token': { final: false, mayHaveBeenProcessed: true, success: false },
	'text/plain 2xx': { kinds: ['write'], final: true, mayHaveBeenProcessed: true, success: true },
	'invalid UTF-8': { final: true, mayHaveBeenProcessed: true, success: false },
	// The bytes are right in the charset the answer declares: read as Latin-1, or refused.
	'Latin-1 declared': { final: true, mayHaveBeenProcessed: true, success: 'either' },
	'secret in 2xx': { final: true, mayHaveBeenProcessed: true, success: true },
	'token in nextLink': {
		kinds: ['page'],
		needsNextLink: true,
		final: true,
		mayHaveBeenProcessed: true,
		success: true,
	},
	'far Retry-After': { final: false, mayHaveBeenProcessed: false, success: false },
};

const FAULTS = Object.keys(TRAITS) as Fault[];
/** About half the answers are healthy, so lists of several pages and loops of batches also get to their end. */
const HEALTHY_SHARE = 0.45;

/** The fault for one request: healthy, or one of the faults that apply to it, uniformly. */
export function drawFault(random: () => number, kind: RequestKind, hasNextLink: boolean): Fault {
	// A healthy page that links to the next one carries a token in its link a third of the time.
	if (random() < HEALTHY_SHARE)
		return hasNextLink && random() < 1 / 3 ? 'token in nextLink' : 'healthy';
	const applicable = FAULTS.filter(
		(fault) =>
			fault !== 'healthy' &&
			(TRAITS[fault].kinds?.includes(kind) ?? true) &&
			(!TRAITS[fault].needsNextLink || hasNextLink),
	);
	return applicable[Math.floor(random() * applicable.length)];
}

/** The healthy answer to a request, and where its records are (to echo a secret into each). */
export interface Healthy {
	status: string;
	body: IDataObject;
	records(body: IDataObject): IDataObject[];
}

/** What a fault needs besides the healthy answer. */
export interface FaultContext {
	/** The bearer token this request carried. */
	token: string;
	/** 1-based number of the request at the service. */
	count: number;
	foreign: string;
}

/** The forms the service echoes a secret in. */
export function echoForms(secret: string): string[] {
	return [
		secret,
		Buffer.from(secret).toString('base64'),
		Buffer.from(secret).toString('base64url'),
		new URLSearchParams({ s: secret }).toString().slice(2),
		encodeURIComponent(secret),
	];
}

export const TEXT_ANSWERS = ['OK', 'Deleted', 'Accepted: queued ✓'];

const head = (status: string, headers: string[], length: number, type = 'application/json') =>
	`HTTP/1.1 ${status}\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n${headers.map((line) => `${line}\r\n`).join('')}\r\n`;

const json = (status: string, body: unknown, headers: string[] = []): string => {
	const text = typeof body === 'string' ? body : JSON.stringify(body);
	return head(status, headers, Buffer.byteLength(text)) + text;
};

const copy = (body: IDataObject): IDataObject => JSON.parse(JSON.stringify(body)) as IDataObject;

function withNextLink(body: IDataObject, change: (link: string) => string): IDataObject {
	const changed = copy(body);
	const meta = changed._metadata as IDataObject;
	meta.nextLink = change(String(meta.nextLink));
	return changed;
}

/**
 * Writes the fault's answer; returns what the node must output for it when it is a success: the
 * healthy body, with every echoed secret as `[redacted]`, or a text answer's text as `data`.
 */
export function writeFault(
	fault: Fault,
	socket: Socket,
	healthy: Healthy,
	context: FaultContext,
): unknown {
	const { token, count } = context;
	switch (fault) {
		case 'healthy':
			socket.end(json(healthy.status, healthy.body));
			return healthy.body;
		case 'token in nextLink': {
			const sent = withNextLink(
				healthy.body,
				(link) => `${link}&access_token=${encodeURIComponent(token)}`,
			);
			socket.end(json(healthy.status, sent));
			return withNextLink(healthy.body, (link) => `${link}&access_token=[redacted]`);
		}
		case 'secret in 2xx': {
			const form = echoForms(token)[count % 5];
			const sent = copy(healthy.body);
			const expected = copy(healthy.body);
			for (const record of healthy.records(sent)) record.note = `seen ${form} end`;
			for (const record of healthy.records(expected)) record.note = 'seen [redacted] end';
			socket.end(json(healthy.status, sent));
			return expected;
		}
		case 'text/plain 2xx': {
			const text = TEXT_ANSWERS[count % TEXT_ANSWERS.length];
			socket.end(
				head(healthy.status, [], Buffer.byteLength(text), 'text/plain; charset=utf-8') + text,
			);
			return { data: text };
		}
		case 'invalid UTF-8':
		case 'Latin-1 declared': {
			// "Müller" in Latin-1: the byte 0xFC is no UTF-8 (declared, or by default). Everything else is
			// ASCII (other characters \u-escaped), so read as Latin-1 the answer is exactly the record.
			const ascii = JSON.stringify({ ...healthy.body, latin: 'M\u0000ller' }).replace(
				/[\u007f-\uffff]/g,
				(char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
			);
			const [before, after] = ascii.split('\\u0000');
			const body = Buffer.concat([Buffer.from(before), Buffer.from([0xfc]), Buffer.from(after)]);
			const latin1 = fault === 'Latin-1 declared';
			const charset = latin1 ? '; charset=iso-8859-1' : count % 2 ? '; charset=utf-8' : '';
			socket.write(head(healthy.status, [], body.length, `application/json${charset}`));
			socket.end(body);
			return latin1 ? { ...healthy.body, latin: 'Müller' } : undefined;
		}
		case 'far Retry-After': {
			const when = count % 2 ? '9999999999' : 'Fri, 31 Dec 9999 23:59:59 GMT';
			return void socket.end(
				json('429 Too Many Requests', '{"error":"come back later"}', [`Retry-After: ${when}`]),
			);
		}
		default:
			return void writeOldFault(fault, socket, context);
	}
}

/** The faults of rounds 1 and 2. */
function writeOldFault(fault: Fault, socket: Socket, context: FaultContext): void {
	const { token, count, foreign } = context;
	switch (fault) {
		case '500':
		case '503':
			return void socket.end(json(`${fault} Error`, '{"error":"chaos"}'));
		case '429':
			return void socket.end(
				json('429 Too Many Requests', '{"error":"slow down"}', ['Retry-After: 0']),
			);
		case '409':
			return void socket.end(json('409 Conflict', '{"error":"not ready"}'));
		case 'reset after read':
			return void socket.destroy();
		case 'silent after headers':
			return void socket.write(
				'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"id":',
			);
		case 'slow drip': {
			socket.write(
				'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n',
			);
			const drip = setInterval(
				() => (socket.destroyed ? clearInterval(drip) : socket.write(' ')),
				100,
			);
			socket.on('close', () => clearInterval(drip));
			return;
		}
		case 'not HTTP':
			return void socket.end('SSH-2.0-chaos\r\n\r\n');
		case 'oversized headers':
			return void socket.end(json('200 OK', '{}', [`X-Padding: ${'x'.repeat(40_000)}`]));
		case 'redirect away':
			return void socket.end(json('302 Found', '{}', [`Location: ${foreign}/api/people`]));
		case '2xx not a record':
			return void socket.end(json('200 OK', '[1,2,3]'));
		case 'echo token':
			return void socket.end(
				json('500 Internal Server Error', { error: echoForms(token)[count % 5] }),
			);
	}
}
