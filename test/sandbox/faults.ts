/**
 * Injected faults: status codes with Retry-After, dropped connections, delays, truncated JSON and
 * HTML error pages, matched by host, method and path, for a count of requests or a seeded ratio.
 */
import * as http from 'http';

import { mulberry32 } from './seed';
import {
	HOST_NAMES,
	HttpError,
	isJsonObject,
	type FaultSpec,
	type HostName,
	type Reply,
} from './types';

interface QueuedFault {
	spec: FaultSpec;
	/** Requests left to affect; undefined = unlimited (ratio fault without count). */
	remaining?: number;
}

export function validateFault(fault: unknown): FaultSpec {
	if (!isJsonObject(fault)) throw new HttpError(400, 'fault must be a JSON object');
	const spec = fault as FaultSpec;
	if (
		spec.status !== undefined &&
		(!Number.isInteger(spec.status) || spec.status < 100 || spec.status > 599)
	) {
		throw new HttpError(400, 'fault.status must be an integer 100..599');
	}
	if (
		spec.ratio !== undefined &&
		(typeof spec.ratio !== 'number' || spec.ratio < 0 || spec.ratio > 1)
	) {
		throw new HttpError(400, 'fault.ratio must be a number 0..1');
	}
	if (spec.count !== undefined && (!Number.isInteger(spec.count) || spec.count < 1)) {
		throw new HttpError(400, 'fault.count must be a positive integer');
	}
	if (spec.delayMs !== undefined && (typeof spec.delayMs !== 'number' || spec.delayMs < 0)) {
		throw new HttpError(400, 'fault.delayMs must be a non-negative number');
	}
	if (spec.match !== undefined && !isJsonObject(spec.match))
		throw new HttpError(400, 'fault.match must be an object');
	for (const key of ['method', 'pathPrefix'] as const) {
		if (spec.match?.[key] !== undefined && typeof spec.match[key] !== 'string')
			throw new HttpError(400, `fault.match.${key} must be a string`);
	}
	for (const key of ['retryAfter', 'body'] as const) {
		if (spec[key] !== undefined && typeof spec[key] !== 'string')
			throw new HttpError(400, `fault.${key} must be a string`);
	}
	if (spec.match?.host !== undefined && !HOST_NAMES.includes(spec.match.host)) {
		throw new HttpError(400, `fault.match.host must be one of ${HOST_NAMES.join(', ')}`);
	}
	return spec;
}

/** The label a faulted request carries in the log (`RecordedRequest.fault`). */
export function describeFault(fault: FaultSpec): string {
	const parts: string[] = [];
	if (fault.delayMs) parts.push(`delay ${fault.delayMs}ms`);
	if (fault.drop) parts.push('drop');
	else if (fault.html) parts.push(`html ${fault.status ?? 502}`);
	else if (fault.malformed) parts.push('malformed');
	else if (fault.status !== undefined)
		parts.push(
			`status ${fault.status}${fault.retryAfter !== undefined ? ` retry-after ${fault.retryAfter}` : ''}`,
		);
	if (fault.afterProcessing) parts.push('after processing');
	if (fault.ratio !== undefined) parts.push(`ratio ${fault.ratio}`);
	return parts.join(', ') || 'no-op';
}

/** Whether the fault replaces the answer (a delay alone only postpones the real one). */
export const replacesAnswer = (fault: FaultSpec): boolean =>
	!!(fault.drop || fault.html || fault.malformed || fault.status !== undefined);

/** The answer a fault sends instead of the real one; 'drop' closes the connection without one. */
export function faultReply(fault: FaultSpec): Reply | 'drop' {
	if (fault.drop) return 'drop';
	if (fault.html) {
		const status = fault.status ?? 502;
		// What a proxy in front of the service returns: the client must not try to parse it as JSON.
		const title = `${status} ${http.STATUS_CODES[status] ?? 'Error'}`;
		const body =
			fault.body ??
			`<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>upstream unavailable</p></body></html>`;
		return { status, body, contentType: 'text/html; charset=utf-8' };
	}
	if (fault.malformed) {
		// Looks like JSON, is cut off mid-value: the client must report a parse error, not crash.
		return {
			status: 200,
			body: fault.body ?? '{"_metadata":{"collection":"people","offset":0,"li',
			contentType: 'application/json',
		};
	}
	const status = fault.status ?? 500;
	const headers: Record<string, string> = {};
	if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
	const body = fault.body ?? JSON.stringify({ error: `injected ${status}` });
	let contentType = 'application/json';
	if (fault.body !== undefined) {
		try {
			JSON.parse(fault.body);
		} catch {
			contentType = 'text/plain; charset=utf-8';
		}
	}
	return { status, body, contentType, headers };
}

/** The queue of injected faults, in injection order; the first one matching a request applies. */
export class FaultQueue {
	private queued: QueuedFault[] = [];
	private random: () => number;

	constructor(private readonly seed: number) {
		this.random = mulberry32(seed ^ 0x9e3779b9);
	}

	inject(fault: FaultSpec): void {
		const spec = validateFault(fault);
		const remaining = spec.count ?? (spec.ratio === undefined ? 1 : undefined);
		this.queued.push({ spec: { ...spec }, remaining });
	}

	clear(): void {
		this.queued = [];
	}

	/** Clears the queue and restarts the ratio draws, so a reset sandbox repeats its faults. */
	reset(): void {
		this.queued = [];
		this.random = mulberry32(this.seed ^ 0x9e3779b9);
	}

	get size(): number {
		return this.queued.length;
	}

	list(): Array<FaultSpec & { remaining: number | null }> {
		return this.queued.map((fault) => ({ ...fault.spec, remaining: fault.remaining ?? null }));
	}

	/** The fault for this request, if any, counting it against the fault's remaining uses. */
	take(host: HostName, method: string, path: string): FaultSpec | undefined {
		for (let i = 0; i < this.queued.length; i++) {
			const fault = this.queued[i];
			const match = fault.spec.match;
			if (match?.host !== undefined && match.host !== host) continue;
			if (match?.method !== undefined && match.method.toUpperCase() !== method) continue;
			if (match?.pathPrefix !== undefined && !path.startsWith(match.pathPrefix)) continue;
			// Ratio faults draw only for requests they match, so the sequence is reproducible.
			if (fault.spec.ratio !== undefined && !(this.random() < fault.spec.ratio)) continue;
			if (fault.remaining !== undefined) {
				fault.remaining--;
				if (fault.remaining <= 0) this.queued.splice(i, 1);
			}
			return fault.spec;
		}
		return undefined;
	}
}
