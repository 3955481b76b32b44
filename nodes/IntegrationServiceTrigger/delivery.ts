import { createHash, createHmac, timingSafeEqual } from 'crypto';
import type { IDataObject } from 'n8n-workflow';

/** Larger bodies are refused (413) before anything else is done with them; an event is a few hundred bytes. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** How many recent event IDs are remembered for deduplication (in the workflow's static data). */
export const DEDUP_CAPACITY = 1000;

/** A longer event ID is remembered by its SHA-256, so memory stays bounded whatever eventId holds. */
export const MAX_KEPT_ID_LENGTH = 128;

const HASHED = 'sha256:';

/** The ID, or `sha256:<hex>` when long or itself `sha256:`-prefixed, so no ID passes for another's hash. */
export function eventKey(eventId: string): string {
	if (eventId.length <= MAX_KEPT_ID_LENGTH && !eventId.startsWith(HASHED)) return eventId;
	return `${HASHED}${createHash('sha256').update(eventId, 'utf8').digest('hex')}`;
}

export const SIGNATURE_HEADER = 'x-service-signature';

/** HMAC-SHA256 over the raw body or its base64, as hex or base64: four forms, each in constant time. */
export function signatureMatches(secret: string, rawBody: Buffer, header?: string): boolean {
	const provided = decodeDigest((header ?? '').trim());
	if (!provided) return false;
	let matched = false;
	for (const input of [Buffer.from(rawBody.toString('base64'), 'utf8'), rawBody]) {
		const expected = createHmac('sha256', secret).update(input).digest();
		// Both are 32 bytes; every form is compared, so the time taken does not tell which one matched.
		if (timingSafeEqual(expected, provided)) matched = true;
	}
	return matched;
}

/** A SHA-256 digest written as 64 hex digits or as padded standard base64; anything else is no digest. */
function decodeDigest(text: string): Buffer | undefined {
	if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
	if (/^[A-Za-z0-9+/]{43}=$/.test(text)) {
		const bytes = Buffer.from(text, 'base64');
		return bytes.length === 32 ? bytes : undefined;
	}
	return undefined;
}

export interface ServiceEvent extends IDataObject {
	eventId: string;
	event: string;
	eventCreated?: string;
	resourceIds?: string[];
	uri?: string;
}

/** The delivery's body as an event, or why it is not one (the sender gets a 400 with that reason). */
export function parseEvent(rawBody: Buffer): { event: ServiceEvent } | { problem: string } {
	let parsed: unknown;
	try {
		parsed = JSON.parse(rawBody.toString('utf8'));
	} catch {
		return { problem: 'The body is not valid JSON' };
	}
	if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
		return { problem: 'The body is not a JSON object' };
	const body = parsed as IDataObject;
	for (const field of ['eventId', 'event']) {
		const value = body[field];
		if (typeof value !== 'string' || value.trim() === '')
			return { problem: `The event has no "${field}"` };
	}
	if (body.uri !== undefined && typeof body.uri !== 'string')
		return { problem: 'The event\'s "uri" is not a string' };
	if (body.resourceIds !== undefined && !Array.isArray(body.resourceIds))
		return { problem: 'The event\'s "resourceIds" is not a list' };
	return { event: body as ServiceEvent };
}

/** Whether an event name is one the trigger listens to ('*' = any event). */
export function eventSelected(selected: readonly string[], event: string): boolean {
	return selected.includes('*') || selected.includes(event);
}

/** Recent event IDs in arrival order, oldest first, as kept in the node's static data. */
export function recentIds(staticData: IDataObject): string[] {
	const ids = staticData.recentEventIds;
	return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
}

/** Per trigger in this process: concurrent deliveries of one event start one execution. */
const claimedInProcess = new Map<string, Set<string>>();

/** False when seen (here or in saved static data); claimed before anything is awaited. */
export function claimEvent(triggerKey: string, staticData: IDataObject, eventId: string): boolean {
	let claimed = claimedInProcess.get(triggerKey);
	if (!claimed) claimedInProcess.set(triggerKey, (claimed = new Set()));
	const key = eventKey(eventId);
	if (claimed.has(key) || recentIds(staticData).includes(key)) return false;
	claimed.add(key);
	if (claimed.size > DEDUP_CAPACITY) claimed.delete(claimed.values().next().value as string);
	return true;
}

/** Gives a claim back when the event could not start the workflow, so the service's retry can. */
export function releaseEvent(triggerKey: string, eventId: string): void {
	claimedInProcess.get(triggerKey)?.delete(eventKey(eventId));
}

/** Kept across restarts, oldest dropped; assigned anew so n8n sees the static data changed. */
export function rememberId(staticData: IDataObject, eventId: string): void {
	const key = eventKey(eventId);
	const ids = recentIds(staticData).filter((id) => id !== key);
	ids.push(key);
	staticData.recentEventIds = ids.slice(-DEDUP_CAPACITY);
}
