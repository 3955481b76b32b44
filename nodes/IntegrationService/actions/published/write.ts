import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { ApplicationError } from 'n8n-workflow';

import type { PublishedField, PublishedResource } from '../../../shared/catalogue/published';
import type { PathSegment } from '../../../shared/service';
import {
	mappingModeProperties,
	readBody,
	shownWhenMappedFromForm,
} from '../../helpers/fieldMapper';
import { inputError, requireId } from '../../helpers/validation';
import type { ServiceRequest, ServiceRun } from '../../transport';
import { serviceRequest } from '../../transport';
import { connectionOf } from '../common.descriptions';
import type { OperationModule } from '../node.type';
import { bodyProperties, fieldProperty, idProperty, JSON_BODY, shownFor } from './properties';

/**
 * Create, Update and Delete of any published entity, and the changes of a record's members (a
 * list's people, a person's tags), driven by the catalogue entry: its host, path, ID and fields.
 */

type Method = 'POST' | 'PUT' | 'DELETE';

/** A request to the resource's path and more segments, with the item's connection. */
function request(
	ctx: IExecuteFunctions,
	itemIndex: number,
	resource: PublishedResource,
	method: Method,
	more: readonly PathSegment[],
	body?: IDataObject,
): ServiceRequest {
	if (resource.host === 'chosen' || resource.host === 'universal')
		throw new ApplicationError(`${resource.value} has no connection host`);
	return {
		method,
		host: resource.host,
		path: [...resource.path, ...more],
		connection: connectionOf(ctx, itemIndex),
		...(body ? { body } : {}),
	};
}

/** The record's ID as a path segment that names its label in every error. */
function idSegment(ctx: IExecuteFunctions, itemIndex: number, resource: PublishedResource) {
	if (!resource.id) throw new ApplicationError(`The catalogue gives ${resource.value} no ID`);
	const { label, name } = resource.id;
	const id = requireId(ctx, itemIndex, label, ctx.getNodeParameter(name, itemIndex, ''));
	return { id, field: label };
}

/** The body of a Create or Update: the JSON body, or the fields (Map Automatically where offered). */
function body(
	ctx: IExecuteFunctions,
	itemIndex: number,
	resource: PublishedResource,
	properties: INodeProperties[],
): IDataObject {
	if (resource.jsonBody) return readBody(ctx, itemIndex, [JSON_BODY]).jsonBody as IDataObject;
	return readBody(ctx, itemIndex, properties, { mappingModes: true });
}

/** The form of a Create or Update: Mapping Mode, then the fields (or the JSON body). */
function form(resource: PublishedResource, properties: INodeProperties[]): INodeProperties[] {
	if (resource.jsonBody) return properties;
	return [...mappingModeProperties(properties), ...shownWhenMappedFromForm(properties)];
}

/** POST {host}/api/{path}: the created record. Not sent twice (the transport's rule for POST). */
export function createOperation(resource: PublishedResource): OperationModule {
	const properties = bodyProperties(resource, 'create');
	return {
		description: shownFor(resource, 'create', form(resource, properties)),
		async execute(this: IExecuteFunctions, itemIndex: number, run: ServiceRun) {
			const sent = body(this, itemIndex, resource, properties);
			const target = request(this, itemIndex, resource, 'POST', [], sent);
			return [await serviceRequest.call(this, itemIndex, target, run)];
		},
	};
}

/** PUT {host}/api/{path}/{id}: the changed record; fields not sent stay as they are. */
export function updateOperation(resource: PublishedResource): OperationModule {
	const properties = bodyProperties(resource, 'update');
	return {
		description: shownFor(resource, 'update', [
			idProperty(resource, 'change'),
			...form(resource, properties),
		]),
		async execute(this: IExecuteFunctions, itemIndex: number, run: ServiceRun) {
			const segment = idSegment(this, itemIndex, resource);
			const sent = body(this, itemIndex, resource, properties);
			const target = request(this, itemIndex, resource, 'PUT', [segment], sent);
			return [await serviceRequest.call(this, itemIndex, target, run)];
		},
	};
}

/**
 * DELETE {host}/api/{path}/{id}: one item `{ id, deleted: true }`. A 404 is the service saying there
 * is no such record: an error of the item, never a success.
 */
export function deleteOperation(resource: PublishedResource): OperationModule {
	return {
		description: shownFor(resource, 'delete', [idProperty(resource, 'delete')]),
		async execute(this: IExecuteFunctions, itemIndex: number, run: ServiceRun) {
			const segment = idSegment(this, itemIndex, resource);
			const target = request(this, itemIndex, resource, 'DELETE', [segment]);
			await serviceRequest.call(this, itemIndex, target, run);
			return [{ id: segment.id, deleted: true }];
		},
	};
}

/**
 * A change of a record's members: `{field}` names sent to {path}/{id}/{more} (a list's people, a
 * person's tags). At least one name is required; the answer is the output item.
 */
export function membersOperation(
	resource: PublishedResource,
	operation: string,
	method: 'POST' | 'DELETE',
	more: readonly string[],
	field: PublishedField,
	verb: string,
): OperationModule {
	const property = fieldProperty(field);
	return {
		description: shownFor(resource, operation, [idProperty(resource, verb), property]),
		async execute(this: IExecuteFunctions, itemIndex: number, run: ServiceRun) {
			const segment = idSegment(this, itemIndex, resource);
			const names = readBody(this, itemIndex, [property])[field.name];
			if (!Array.isArray(names) || names.length === 0)
				throw inputError(this, itemIndex, field.label, 'add at least one value');
			const sent = { [field.name]: names };
			const target = request(this, itemIndex, resource, method, [segment, ...more], sent);
			return [await serviceRequest.call(this, itemIndex, target, run)];
		},
	};
}
