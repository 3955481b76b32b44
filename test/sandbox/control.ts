/**
 * Control endpoints under /__sandbox/ on every host: no auth, not logged, no latency. They let
 * another process (benchmark, demo, e2e, a person with curl) inspect and steer a running sandbox.
 */
import type * as http from 'http';
import { URLSearchParams } from 'url';

import type { EventDelivery } from './events';
import type { FaultQueue } from './faults';
import { validateFault } from './faults';
import { LOOKALIKES } from './lookalikes';
import type { Records } from './records';
import {
	HttpError,
	isJsonObject,
	type DeliveryMode,
	type JsonObject,
	type HostName,
	type PagingStyle,
	type RecordedRequest,
	type SignatureKind,
} from './types';

/** What the control endpoints reach inside the sandbox. */
export interface ControlTarget {
	urls: Record<HostName, string>;
	credentialIds: string[];
	defaultCredentialId: string;
	requests: RecordedRequest[];
	faults: FaultQueue;
	records: Records;
	events: EventDelivery;
	paging: PagingStyle;
	latency: number;
	reset(): void;
	setPaging(style: PagingStyle): void;
	setLatency(ms: number): void;
	setPeople(count: number): void;
	addPeople(credentialId: string, people: readonly Record<string, unknown>[]): (number | string)[];
}

/** The lines `npm run sandbox` prints about these endpoints. */
export const CONTROL_USAGE = [
	'Control (any host, no auth):',
	'  GET /__sandbox/requests[?since=<seq>]   the request log',
	'  GET /__sandbox/counts                  records per kind and connection',
	'  POST|GET|DELETE /__sandbox/faults      inject ({status, retryAfter, drop, delayMs, ...}), list, clear faults',
	'  POST /__sandbox/reset                  back to the seeded state',
	'  POST /__sandbox/config                 {"paging": "nextLink"|"next"|"offset", "latencyMs": n, "people": n (reseeds until reset)}',
	'  POST /__sandbox/people                 {"lookalikes": true} or {"people": [...]}, "credentialId"?: adds people',
	'                                         after the seeded ones (LOOKALIKES: duplicate, mixed-case, missing',
	'                                         emails, phones in several formats); answers their ids',
	'  GET /__sandbox/info                    URLs and credential ids',
	'Webhook events: PUT {calendar}/api/webhooks/w-1 with {"url": "http://127.0.0.1:<port>/...", "event": "peopleCreated"}',
	'  (or borrowersUpdated, documentsCreated) registers a receiver; creating a person (updating a borrower,',
	'  creating a document) then POSTs {eventId, eventCreated, event, resourceIds, uri} to it, signed with',
	'  X-Service-Signature = hex HMAC-SHA256(client secret, base64(raw body)); 5xx or network errors are',
	'  retried 3 times, 500 ms apart. Only loopback receivers are called.',
	'  POST /__sandbox/deliveries {"mode": "normal"|"twice"|"badSignature"|"unsigned"}   how to send the next ones',
	'  GET /__sandbox/deliveries                                   every attempt: eventId, event, url, status, signature',
	'  POST /__sandbox/deliveries/redeliver {"eventId": "evt_1", "signature"?: "good"|"bad"|"none"}   send one again',
];

function parseJson(rawBody: string): unknown {
	if (rawBody.trim() === '') return undefined;
	try {
		return JSON.parse(rawBody);
	} catch {
		throw new HttpError(400, 'control request body is not valid JSON');
	}
}

async function answer(
	target: ControlTarget,
	method: string,
	path: string,
	queryString: string,
	rawBody: string,
): Promise<unknown> {
	switch (`${method} ${path}`) {
		case 'GET /__sandbox/requests': {
			const since = Number(new URLSearchParams(queryString).get('since') ?? '0');
			return since > 0 ? target.requests.filter((request) => request.seq > since) : target.requests;
		}
		case 'GET /__sandbox/faults':
			return target.faults.list();
		case 'POST /__sandbox/faults': {
			const body = parseJson(rawBody);
			const specs = (Array.isArray(body) ? body : [body]).map((fault) => validateFault(fault));
			for (const spec of specs) target.faults.inject(spec);
			return { ok: true, queued: target.faults.size };
		}
		case 'DELETE /__sandbox/faults':
			target.faults.clear();
			return { ok: true };
		case 'POST /__sandbox/reset':
			target.reset();
			return { ok: true };
		case 'GET /__sandbox/counts':
			return target.records.countsJson();
		case 'POST /__sandbox/config': {
			const body = parseJson(rawBody);
			if (!isJsonObject(body)) throw new HttpError(400, 'config body must be a JSON object');
			try {
				if (body.paging !== undefined) target.setPaging(body.paging as PagingStyle);
				if (body.latencyMs !== undefined) target.setLatency(body.latencyMs as number);
				if (body.people !== undefined) target.setPeople(body.people as number);
			} catch (error) {
				throw new HttpError(400, (error as Error).message);
			}
			return { ok: true, paging: target.paging, latencyMs: target.latency };
		}
		case 'POST /__sandbox/people': {
			const body = parseJson(rawBody);
			const people =
				isJsonObject(body) && body.lookalikes === true
					? LOOKALIKES
					: body && (body as JsonObject).people;
			if (!Array.isArray(people) || !people.every(isJsonObject))
				throw new HttpError(
					400,
					'people body must be {"lookalikes": true} or {"people": [objects]}',
				);
			const credentialId =
				isJsonObject(body) && typeof body.credentialId === 'string'
					? body.credentialId
					: target.defaultCredentialId;
			if (!target.credentialIds.includes(credentialId))
				throw new HttpError(400, `unknown credential id '${credentialId}'`);
			return { ids: target.addPeople(credentialId, people) };
		}
		case 'GET /__sandbox/info':
			// Deliberately no token or secret here: this endpoint is unauthenticated.
			return {
				urls: target.urls,
				credentialIds: target.credentialIds,
				defaultCredentialId: target.defaultCredentialId,
				paging: target.paging,
				latencyMs: target.latency,
			};
		case 'GET /__sandbox/deliveries':
			return target.events.attempts;
		case 'POST /__sandbox/deliveries': {
			const body = parseJson(rawBody);
			if (!isJsonObject(body)) throw new HttpError(400, 'deliveries body must be a JSON object');
			target.events.setMode(body.mode as DeliveryMode);
			return { ok: true, mode: target.events.currentMode };
		}
		case 'POST /__sandbox/deliveries/redeliver': {
			const body = parseJson(rawBody);
			if (!isJsonObject(body) || typeof body.eventId !== 'string')
				throw new HttpError(
					400,
					'redeliver body must be {"eventId": "...", "signature"?: "good"|"bad"|"none"}',
				);
			return {
				status: await target.events.redeliver(
					body.eventId,
					body.signature as SignatureKind | undefined,
				),
			};
		}
		default:
			throw new HttpError(404, `unknown control endpoint ${method} ${path}`);
	}
}

export async function handleControl(
	target: ControlTarget,
	method: string,
	path: string,
	queryString: string,
	rawBody: string,
	response: http.ServerResponse,
): Promise<void> {
	let status = 200;
	let value: unknown;
	try {
		value = await answer(target, method, path, queryString, rawBody);
	} catch (error) {
		status = error instanceof HttpError ? error.status : 500;
		value = {
			error:
				error instanceof HttpError
					? error.message
					: `sandbox internal error: ${(error as Error).message}`,
		};
	}
	if (response.destroyed) return;
	const body = JSON.stringify(value);
	response.writeHead(status, {
		'content-type': 'application/json; charset=utf-8',
		'content-length': String(Buffer.byteLength(body)),
	});
	response.end(body);
}
