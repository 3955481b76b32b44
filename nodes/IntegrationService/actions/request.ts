import type { IDataObject, IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';
import { ApplicationError } from 'n8n-workflow';

import type { ResourceSpec } from '../../shared/catalogue';
import type { PathSegment } from '../../shared/service';
import { locatorValue } from '../helpers/kinds/locator';
import { toNumber } from '../helpers/kinds/number';
import { optionalText, requireId } from '../helpers/kinds/text';
import { inputError } from '../helpers/validation';
import type { Connection, RequestSettings, ServiceRequest, ServiceRun } from '../transport';
import { serviceRequest } from '../transport';
import { REQUEST_BOUNDS } from './common.descriptions';
import { SETTINGS } from './settings';
import { FORM_VERSION } from './version';

/**
 * What an operation's requests share: the run's settings (Request Options), the item's connection
 * (Connection ID), the record's ID, and the request to a catalogue resource.
 */

/**
 * Max Time per Item when it is 0: an AI agent or MCP client that calls the node as a tool gives up on
 * it after a while (the MCP client's default request timeout is 60 s), and asks again; a request that
 * outlives it may create a record twice. In a workflow nobody waits on an item by default, and a Return
 * All of many records legitimately takes minutes: Max Attempts, Max Total Retry Wait and Timeout bound
 * each request there (decisions.md, Deadlines).
 */
export const TOOL_MAX_ITEM_MS = 45_000;

/**
 * Whether an AI agent or an MCP client calls the node as a tool. n8n 2.41 makes the tool variant a node
 * type whose name ends in "Tool"; the AI Agent runs it as an ordinary node (isToolExecution is false
 * there), the MCP Server Trigger through a context whose isToolExecution() is true.
 */
export function runsAsTool(ctx: Pick<IExecuteFunctions, 'getNode'> & Partial<IExecuteFunctions>) {
	const says = typeof ctx.isToolExecution === 'function' && ctx.isToolExecution();
	return says || ctx.getNode().type.endsWith('Tool');
}

const MEBIBYTE = 1024 * 1024;

/** The node-wide settings: version 1's own parameters, each a key or keys of version 2's Options. */
type Setting = 'credentialId' | 'output' | 'requestOptions';

/**
 * A node-wide setting of an item, the one reader of both versions: version 1's parameter (Connection
 * ID's text, Output's and Request Options' collections), or version 2's one Options collection, which
 * holds the same keys (common.descriptions.ts `settingsProperty`). `label` names its group in errors.
 */
export function readSetting(
	ctx: Pick<IExecuteFunctions, 'getNode' | 'getNodeParameter'>,
	setting: Setting,
	itemIndex: number,
): { value: unknown; label: string } {
	if (ctx.getNode().typeVersion < FORM_VERSION) {
		const label = setting === 'output' ? 'Output' : 'Request Options';
		return {
			value: ctx.getNodeParameter(setting, itemIndex, setting === 'credentialId' ? '' : {}),
			label,
		};
	}
	const options = (ctx.getNodeParameter(SETTINGS, itemIndex, {}) ?? {}) as IDataObject;
	const value = setting === 'credentialId' ? (options.credentialId ?? '') : options;
	return { value, label: 'Options' };
}

/**
 * The Request Options of a run, read once for the first item (an expression sees that item), each
 * checked against the bounds the editor shows, so an expression cannot ask for 100,000 attempts or a
 * 5,000-wide burst.
 */
export function readRequestOptions(ctx: IExecuteFunctions): {
	settings: RequestSettings;
	concurrency: number;
} {
	const setting = readSetting(ctx, 'requestOptions', 0);
	const given = (setting.value ?? {}) as IDataObject;
	const value = {} as Record<keyof typeof REQUEST_BOUNDS, number>;
	for (const [name, bound] of Object.entries(REQUEST_BOUNDS)) {
		const raw = given[name];
		const key = name as keyof typeof REQUEST_BOUNDS;
		value[key] = bound.default;
		if (raw === undefined || raw === null || raw === '') continue;
		const field = `${setting.label} › ${bound.label}`;
		const number = toNumber(ctx, 0, field, raw);
		if (bound.whole && !Number.isInteger(number))
			throw inputError(ctx, 0, field, `must be a whole number, got ${number}`);
		if (number < bound.min || number > bound.max)
			throw inputError(
				ctx,
				0,
				field,
				`must be between ${bound.min} and ${bound.max}, got ${number}`,
			);
		value[key] = number;
	}
	const maxItem = value.maxTimePerItem * 1000;
	return {
		settings: {
			maxAttempts: value.maxAttempts,
			maxTotalWaitMs: value.maxTotalWait * 1000,
			initialDelayMs: value.initialRetryDelay,
			timeoutMs: value.timeout * 1000,
			maxResponseBytes: Math.round(value.maxResponseSize * MEBIBYTE),
			maxRequestsPerSecond: value.maxRequestsPerSecond,
			maxItemMs: maxItem > 0 ? maxItem : runsAsTool(ctx) ? TOOL_MAX_ITEM_MS : 0,
		},
		concurrency: value.concurrency,
	};
}

/** The item's connection: its Connection ID, or the credential's default when that is empty. */
export function connectionOf(ctx: IExecuteFunctions, itemIndex: number): Connection {
	const given = readSetting(ctx, 'credentialId', itemIndex).value;
	return connectionFrom(optionalText(ctx, itemIndex, 'Connection ID', given));
}

/** The connection a Connection ID names; the credential's default when there is none. */
export function connectionFrom(credentialId: string | undefined): Connection {
	// The one place a Connection is made from a parameter (transport/request.ts brands the type).
	return (credentialId === undefined ? {} : { credentialId }) as Connection;
}

/**
 * A record's ID as read: the path segment's text (`id`, its label named in every error) and the value
 * as the item gave it (`value`): a connected system's numeric ID 11 is sent as "11" and output as 11.
 */
export interface RecordId extends Exclude<PathSegment, string> {
	value: string | number;
}

/** A record's ID for an item: the one reader of every ID parameter. */
export function readId(
	ctx: IExecuteFunctions,
	itemIndex: number,
	id: { label: string; name: string },
): RecordId {
	const given: unknown = locatorValue(ctx.getNodeParameter(id.name, itemIndex, ''));
	const text = requireId(ctx, itemIndex, id.label, given);
	return { id: text, field: id.label, value: typeof given === 'number' ? given : text };
}

export interface EntityCall {
	method: IHttpRequestMethods;
	path?: readonly PathSegment[];
	qs?: IDataObject;
	body?: IDataObject;
}

/**
 * A request to a catalogue resource's path (and more segments), on its host. The item's Connection ID
 * is read here for every host that takes one, so no operation can leave it out; so are the
 * write-only values the body sends, which the transport redacts from the answer and errors.
 */
export function entityRequest(
	ctx: IExecuteFunctions,
	itemIndex: number,
	resource: ResourceSpec,
	call: EntityCall,
): ServiceRequest {
	const { host } = resource;
	const { method, qs, body } = call;
	const path = call.path ? [...resource.path, ...call.path] : resource.path;
	// A POST to the resource's own list makes a new record (a POST to a record's members does not).
	const creates =
		method === 'POST' && !call.path?.length
			? (resource.noun?.one ?? resource.label.toLowerCase())
			: undefined;
	const writeOnly: string[] = [];
	for (const field of resource.fields ?? []) {
		const value = body?.[field.name];
		if (field.writeOnly && typeof value === 'string') writeOnly.push(value);
	}
	const parts = {
		method,
		qs,
		body,
		host,
		path,
		creates,
		...(writeOnly.length ? { writeOnly } : {}),
	};
	if (host === 'universal') return { ...parts, host };
	if (host === 'chosen') throw new ApplicationError(`${resource.value} has no fixed host`);
	return { ...parts, host, connection: connectionOf(ctx, itemIndex) };
}

/** The record answered without the resource's write-only fields (their values are redacted). */
function withoutWriteOnly(record: IDataObject, resource: ResourceSpec): IDataObject {
	const kept: IDataObject = {};
	const names = new Set((resource.fields ?? []).flatMap((f) => (f.writeOnly ? [f.name] : [])));
	// A service may send an own "__proto__" key: defined, never assigned (no prototype change).
	for (const [key, value] of Object.entries(record))
		if (!names.has(key))
			Object.defineProperty(kept, key, { value, enumerable: true, writable: true });
	return kept;
}

/** Sends one request to a catalogue resource: the answer, without the write-only fields it sent. */
export async function sendToEntity(
	ctx: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
	resource: ResourceSpec,
	call: EntityCall,
): Promise<IDataObject> {
	const request = entityRequest(ctx, itemIndex, resource, call);
	const record = await serviceRequest.call(ctx, itemIndex, request, run);
	return request.writeOnly ? withoutWriteOnly(record, resource) : record;
}
