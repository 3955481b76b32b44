import type { IDataObject, IExecuteFunctions, IHttpRequestMethods } from 'n8n-workflow';
import { ApplicationError } from 'n8n-workflow';

import type { ResourceSpec } from '../../shared/catalogue';
import type { PathSegment } from '../../shared/service';
import { locatorValue } from '../helpers/kinds/locator';
import { toNumber, toWholeNumber } from '../helpers/kinds/number';
import { optionalText, requireId } from '../helpers/kinds/text';
import { inputError } from '../helpers/validation';
import type { Connection, RequestSettings, ServiceRequest, ServiceRun } from '../transport';
import { serviceRequest } from '../transport';
import type { Bound } from './common.descriptions';
import { REQUEST_BOUNDS } from './common.descriptions';
import { FORM_VERSION, SETTINGS } from './settings';

/** What an operation's requests share: the run's settings, the item's connection, the record's ID. */

/** Max Time per Item 0 for a model: it asks again after 60 s, and a late create could land twice. */
export const TOOL_MAX_ITEM_MS = 45_000;

/** The AI Agent runs the "…Tool" node type as an ordinary node; the MCP trigger says isToolExecution. */
export function runsAsTool(ctx: Pick<IExecuteFunctions, 'getNode'> & Partial<IExecuteFunctions>) {
	const says = typeof ctx.isToolExecution === 'function' && ctx.isToolExecution();
	return says || ctx.getNode().type.endsWith('Tool');
}

const MEBIBYTE = 1024 * 1024;

type Setting = 'credentialId' | 'output' | 'requestOptions';

/** A node-wide setting: version 1's own parameter, or a key of version 2's one Options collection. */
export function readSetting(
	ctx: Pick<IExecuteFunctions, 'getNode' | 'getNodeParameter'>,
	setting: Setting,
	itemIndex: number,
): { value: unknown; label: string } {
	if (ctx.getNode().typeVersion < FORM_VERSION) {
		const value = ctx.getNodeParameter(setting, itemIndex, setting === 'credentialId' ? '' : {});
		return { value, label: setting === 'output' ? 'Output' : 'Request Options' };
	}
	const options = (ctx.getNodeParameter(SETTINGS, itemIndex, {}) ?? {}) as IDataObject;
	const value = setting === 'credentialId' ? (options.credentialId ?? '') : options;
	return { value, label: 'Options' };
}

/** A run's Request Options, read for the first item and checked against the editor's bounds. */
export function readRequestOptions(ctx: IExecuteFunctions): {
	settings: RequestSettings;
	concurrency: number;
} {
	const setting = readSetting(ctx, 'requestOptions', 0);
	const given = (setting.value ?? {}) as IDataObject;
	const value = {} as Record<keyof typeof REQUEST_BOUNDS, number>;
	for (const [key, bound] of Object.entries(REQUEST_BOUNDS) as Array<[keyof typeof value, Bound]>) {
		const raw = given[key];
		const field = `${setting.label} › ${bound.displayName.replace(/ \(.*\)$/, '')}`;
		const { min, max } = bound;
		value[key] =
			raw === undefined || raw === null || raw === ''
				? bound.initial
				: bound.whole
					? toWholeNumber(ctx, 0, field, raw, min, max)
					: toNumber(ctx, 0, field, raw);
		if (value[key] < min || value[key] > max)
			throw inputError(ctx, 0, field, `must be between ${min} and ${max}, got ${value[key]}`);
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

/** The one place a Connection is made from a parameter; none means the credential's default. */
export function connectionOf(ctx: IExecuteFunctions, itemIndex: number): Connection {
	const given = readSetting(ctx, 'credentialId', itemIndex).value;
	const credentialId = optionalText(ctx, itemIndex, 'Connection ID', given);
	return (credentialId === undefined ? {} : { credentialId }) as Connection;
}

/** A record's ID: sent as text (`id`), output as given (`value`: 11 stays a number). */
export interface RecordId extends Exclude<PathSegment, string> {
	value: string | number;
}

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

/** A request to a catalogue resource, with the item's Connection ID and the body's write-only values. */
export function entityRequest(
	ctx: IExecuteFunctions,
	itemIndex: number,
	resource: ResourceSpec,
	call: EntityCall,
): ServiceRequest {
	const { host } = resource;
	if (host === 'chosen') throw new ApplicationError(`${resource.value} has no fixed host`);
	const path = call.path ? [...resource.path, ...call.path] : resource.path;
	// A POST to the resource's own list makes a new record (a POST to a record's members does not).
	const creates =
		call.method === 'POST' && !call.path?.length
			? (resource.noun?.one ?? resource.label.toLowerCase())
			: undefined;
	const writeOnly = (resource.fields ?? []).flatMap(({ name, writeOnly: secret }) =>
		secret && typeof call.body?.[name] === 'string' ? [call.body[name] as string] : [],
	);
	const request = { ...call, path, creates, ...(writeOnly.length ? { writeOnly } : {}) };
	if (host === 'universal') return { ...request, host };
	return { ...request, host, connection: connectionOf(ctx, itemIndex) };
}

/** The record's own keys that `keep` keeps; the record itself when it keeps them all. */
export function picked(record: IDataObject, keep: (key: string) => boolean): IDataObject {
	const keys = Object.keys(record);
	if (keys.every(keep)) return record;
	const result: IDataObject = {};
	for (const key of keys.filter(keep)) {
		// An own "__proto__" key is defined, never assigned (no prototype change); every other key is
		// assigned, so records keep one plain shape (defining them all cost the export 100 MiB of RSS).
		if (key === '__proto__')
			Object.defineProperty(result, key, { value: record[key], enumerable: true, writable: true });
		else result[key] = record[key];
	}
	return result;
}

/** The answer, without the write-only fields sent. */
export async function sendToEntity(
	ctx: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
	resource: ResourceSpec,
	call: EntityCall,
): Promise<IDataObject> {
	const request = entityRequest(ctx, itemIndex, resource, call);
	const record = await serviceRequest.call(ctx, itemIndex, request, run);
	if (!request.writeOnly) return record;
	const secret = new Set(resource.fields?.flatMap((f) => (f.writeOnly ? [f.name] : [])));
	return picked(record, (key) => !secret.has(key));
}
