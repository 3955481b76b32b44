/**
 * Webhook event delivery (contract 1 of the shared brief). When a record changes through the API the
 * sandbox, after answering, POSTs `{ eventId, eventCreated, event, resourceIds: [id], uri }` to every
 * registered webhook of that connection whose `event` is the change's name, signed with
 * `X-Service-Signature`: lowercase hex HMAC-SHA256, keyed with the signing secret, over the base64 of
 * the exact raw body. At least once: a 5xx or a network error is retried up to 3 times, 500 ms apart.
 *
 * Deliveries go only to the registered URL, and only when its host is a loopback address: the
 * sandbox never sends anything off the machine (other URLs are recorded as status 0, not sent).
 */
import * as crypto from 'crypto';
import * as http from 'http';
import * as https from 'https';

import type { RecordChange } from './routes';
import {
	DELIVERY_MODES,
	HttpError,
	type DeliveryAttempt,
	type DeliveryMode,
	type SignatureKind,
} from './types';

export const DELIVERY_RETRIES = 3;
export const DELIVERY_RETRY_DELAY_MS = 500;
const RECEIVER_TIMEOUT_MS = 5000;
const LOOPBACK_HOSTS = new Set(['localhost', '[::1]', '::1']);

/** The X-Service-Signature value for a raw body: hex HMAC-SHA256 over base64(body). */
export function signDelivery(rawBody: string, secret: string): string {
	return crypto
		.createHmac('sha256', secret)
		.update(Buffer.from(rawBody, 'utf8').toString('base64'))
		.digest('hex');
}

export function isLoopbackUrl(url: string): boolean {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return false;
	}
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
	return LOOPBACK_HOSTS.has(parsed.hostname) || /^127\.\d+\.\d+\.\d+$/.test(parsed.hostname);
}

interface RecordedEvent {
	eventId: string;
	event: string;
	url: string;
	rawBody: string;
}

export interface DeliveryEnvironment {
	signingSecret: string;
	/** A delay that ends early when the sandbox closes. */
	sleep(ms: number): Promise<void>;
	isClosed(): boolean;
}

export class EventDelivery {
	/** Every attempt, in order; cleared in place on reset so callers' references stay valid. */
	readonly attempts: DeliveryAttempt[] = [];
	private readonly events = new Map<string, RecordedEvent>();
	private readonly pending = new Set<Promise<unknown>>();
	private readonly inFlight = new Set<http.ClientRequest>();
	private mode: DeliveryMode = 'normal';
	/** Bumped on reset: work started before it records nothing and stops retrying. */
	private generation = 0;
	private nextEventNumber = 0;

	constructor(private readonly env: DeliveryEnvironment) {}

	get currentMode(): DeliveryMode {
		return this.mode;
	}

	setMode(mode: DeliveryMode): void {
		if (!DELIVERY_MODES.includes(mode))
			throw new HttpError(400, `mode must be one of ${DELIVERY_MODES.join(', ')}`);
		this.mode = mode;
	}

	reset(): void {
		this.generation++;
		this.attempts.length = 0;
		this.events.clear();
		this.mode = 'normal';
		this.nextEventNumber = 0;
	}

	/** Delivers a change to each target URL; each target gets its own eventId. Returns at once. */
	raise(change: RecordChange, targetUrls: string[]): void {
		for (const url of targetUrls) {
			const eventId = `evt_${++this.nextEventNumber}`;
			const body = {
				eventId,
				eventCreated: new Date().toISOString(),
				event: change.event,
				resourceIds: [change.resourceId],
				uri: change.uri,
			};
			const recorded: RecordedEvent = {
				eventId,
				event: change.event,
				url,
				rawBody: JSON.stringify(body),
			};
			this.events.set(eventId, recorded);
			const signature: SignatureKind =
				this.mode === 'badSignature' ? 'bad' : this.mode === 'unsigned' ? 'none' : 'good';
			const times = this.mode === 'twice' ? 2 : 1;
			this.track(this.deliverWithRetries(recorded, signature, times));
		}
	}

	/** Sends a recorded event once more, without retries; resolves to the receiver's status (0: network error). */
	async redeliver(eventId: string, signature: SignatureKind = 'good'): Promise<number> {
		const recorded = this.events.get(eventId);
		if (!recorded) throw new HttpError(404, `no recorded event '${eventId}'`);
		if (!['good', 'bad', 'none'].includes(signature))
			throw new HttpError(400, 'signature must be good, bad or none');
		const attempt = this.attempt(recorded, signature, this.generation);
		this.track(attempt);
		return await attempt;
	}

	/** Resolves once nothing is being delivered or waiting for a retry. */
	async settled(): Promise<void> {
		while (this.pending.size > 0) await Promise.all([...this.pending]);
	}

	/** Aborts requests in flight (the sandbox is closing). */
	abort(): void {
		for (const request of this.inFlight) request.destroy();
	}

	private track(work: Promise<unknown>): void {
		const tracked = work.catch(() => undefined).finally(() => this.pending.delete(tracked));
		this.pending.add(tracked);
	}

	private async deliverWithRetries(
		recorded: RecordedEvent,
		signature: SignatureKind,
		times: number,
	): Promise<void> {
		const generation = this.generation;
		for (let time = 0; time < times; time++) {
			for (let retry = 0; retry <= DELIVERY_RETRIES; retry++) {
				if (retry > 0) await this.env.sleep(DELIVERY_RETRY_DELAY_MS);
				if (this.env.isClosed() || generation !== this.generation) return;
				const status = await this.attempt(recorded, signature, generation);
				const failed = status === 0 || status >= 500;
				if (!failed || !isLoopbackUrl(recorded.url)) break;
			}
		}
	}

	private async attempt(
		recorded: RecordedEvent,
		signature: SignatureKind,
		generation: number,
	): Promise<number> {
		const status =
			isLoopbackUrl(recorded.url) && !this.env.isClosed()
				? await this.post(recorded, signature)
				: 0;
		if (generation === this.generation) {
			this.attempts.push({
				eventId: recorded.eventId,
				event: recorded.event,
				url: recorded.url,
				status,
				signature,
			});
		}
		return status;
	}

	private post(recorded: RecordedEvent, signature: SignatureKind): Promise<number> {
		const body = Buffer.from(recorded.rawBody, 'utf8');
		const headers: Record<string, string> = {
			'content-type': 'application/json',
			'content-length': String(body.length),
		};
		if (signature !== 'none') {
			// A bad signature has the right form, made with the wrong key.
			const key = signature === 'good' ? this.env.signingSecret : `not-${this.env.signingSecret}`;
			headers['x-service-signature'] = signDelivery(recorded.rawBody, key);
		}
		const client = recorded.url.startsWith('https:') ? https : http;
		return new Promise((resolve) => {
			const request = client.request(
				recorded.url,
				{ method: 'POST', headers, timeout: RECEIVER_TIMEOUT_MS },
				(response) => {
					response.resume();
					response.on('end', () => resolve(response.statusCode ?? 0));
					response.on('error', () => resolve(response.statusCode ?? 0));
				},
			);
			this.inFlight.add(request);
			request.on('close', () => this.inFlight.delete(request));
			request.on('timeout', () => request.destroy());
			request.on('error', () => resolve(0));
			request.end(body);
		});
	}
}
