import type {
	IDataObject,
	IExecuteFunctions,
	IDisplayOptions,
	IHttpRequestMethods,
	INodeProperties,
} from 'n8n-workflow';
import { ApplicationError } from 'n8n-workflow';

import type { ResourceSpec } from '../../../shared/catalogue';
import { resourceSpec } from '../../../shared/catalogue';
import type { PathSegment, ServiceHost } from '../../../shared/service';
import type { ServiceRequest, ServiceRun } from '../../transport';
import { serviceRequest } from '../../transport';
import { connectionOf } from '../parameters';

/** How the texts name the system a host stands for. */
const SYSTEM: Record<ServiceHost, string> = {
	crm: 'connected CRM',
	los: 'connected loan origination system',
	calendar: 'connected calendar',
	universal: 'Integration Service',
};

export function systemOf(resource: ResourceSpec): string {
	return resource.host === 'chosen' ? 'service' : SYSTEM[resource.host];
}

/** The nouns of a resource's texts; its label's words when the catalogue names none. */
export function nounsOf(resource: ResourceSpec): { one: string; many: string } {
	const one = resource.label.toLowerCase();
	return resource.noun ?? { one, many: `${one}s` };
}

/** "a note", "an appointment": the noun with its indefinite article. */
export function withArticle(noun: string): string {
	return `${/^[aeiou]/.test(noun) ? 'an' : 'a'} ${noun}`;
}

/** Where an operation's own fields show, for any catalogue resource. */
export function shownForResource(resource: ResourceSpec, operation: string): IDisplayOptions {
	return { show: { resource: [resource.value], operation: [operation] } };
}

/** A resource's ID (label, parameter name): an operation on one record needs it in the catalogue. */
export function idOf(resource: ResourceSpec): NonNullable<ResourceSpec['id']> {
	if (!resource.id) throw new ApplicationError(`The catalogue gives ${resource.value} no ID`);
	return resource.id;
}

/** A resource's ID parameter (its label, name and placeholder from the catalogue). */
export function idProperty(resource: ResourceSpec, verb: string): INodeProperties {
	const { one } = nounsOf(resource);
	const id = idOf(resource);
	return {
		displayName: id.label,
		name: id.name,
		type: 'string',
		required: true,
		default: '',
		placeholder: id.placeholder,
		description: `ID of the ${one} to ${verb}, as the Integration Service returns it in the ${one}'s "ID" field`,
	};
}

/** The resource's write-only fields (a user's password), by name. */
const writeOnlyNames = (resource: ResourceSpec): Set<string> =>
	new Set((resource.fields ?? []).filter((field) => field.writeOnly).map((field) => field.name));

/**
 * A request to a catalogue resource's path (and more segments), on its host. The item's Connection ID
 * is read here for every host that takes one, so no catalogue operation can leave it out; so are the
 * write-only values the body sends, which the transport redacts from the answer and errors.
 */
export function entityRequest(
	ctx: IExecuteFunctions,
	itemIndex: number,
	resource: ResourceSpec,
	call: {
		method: IHttpRequestMethods;
		path?: readonly PathSegment[];
		qs?: IDataObject;
		body?: IDataObject;
	},
): ServiceRequest {
	const { host } = resource;
	const { method, qs, body } = call;
	const path = call.path ? [...resource.path, ...call.path] : resource.path;
	// A POST to the resource's own list makes a new record (a POST to a record's members does not).
	const creates = method === 'POST' && !call.path?.length ? nounsOf(resource).one : undefined;
	const writeOnly = [...writeOnlyNames(resource)]
		.map((name) => body?.[name])
		.filter((value): value is string => typeof value === 'string');
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

/** The record answered without the write-only fields the request sent (their values are redacted). */
function withoutWriteOnly(record: IDataObject, names: Set<string>): IDataObject {
	const kept: IDataObject = {};
	// A service may send an own "__proto__" key: defined, never assigned (no prototype change).
	for (const [key, value] of Object.entries(record))
		if (!names.has(key))
			Object.defineProperty(kept, key, { value, enumerable: true, writable: true });
	return kept;
}

/**
 * Sends one request to a catalogue resource (entityRequest): the service's answer, without the
 * write-only fields the request sent. Not async itself: one promise less per request;
 * entityRequest's input errors still reject the returned promise.
 */
export function sendToEntity(
	ctx: IExecuteFunctions,
	itemIndex: number,
	run: ServiceRun,
	resource: ResourceSpec,
	call: Parameters<typeof entityRequest>[3],
): Promise<IDataObject> {
	try {
		const request = entityRequest(ctx, itemIndex, resource, call);
		const answer = serviceRequest.call(ctx, itemIndex, request, run);
		if (!request.writeOnly) return answer;
		const names = writeOnlyNames(resource);
		return answer.then((record) => withoutWriteOnly(record, names));
	} catch (error) {
		return Promise.reject(error);
	}
}

/** The catalogue's resource of that value; a resource module naming one the catalogue lacks is a defect. */
export function catalogueResource(value: string): ResourceSpec {
	const resource = resourceSpec(value);
	if (!resource) throw new ApplicationError(`The catalogue has no resource ${value}`);
	return resource;
}
