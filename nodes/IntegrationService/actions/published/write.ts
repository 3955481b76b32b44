import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ResourceSpec } from '../../../shared/catalogue';
import type { PublishedField, PublishedResource } from '../../../shared/catalogue/published';
import { readBody } from '../../helpers/fieldMapper';
import { inputError } from '../../helpers/validation';
import { createOperation, updateOperation } from '../generic/body';
import { idOf, idProperty, sendToEntity, shownForResource } from '../generic/entity';
import type { OperationModule } from '../node.type';
import { readId } from '../parameters';
import { fieldProperty } from '../generic/fields';
import { bodyProperties, JSON_BODY } from './properties';

/**
 * Create, Update and Delete of any published entity, and the changes of a record's members (a
 * list's people), driven by the catalogue entry: its host, path, ID and fields. Create and Update
 * are the generic bodies (generic/body.ts) but where the source publishes no fields.
 */

/** Create or Update whose body is one JSON object (no fields published). */
function jsonBodyOperation(
	resource: ResourceSpec,
	operation: 'create' | 'update',
): OperationModule {
	const update = operation === 'update';
	const id = update ? [idProperty(resource, 'change')] : [];
	return {
		description: updateDisplayOptions(shownForResource(resource, operation), [...id, JSON_BODY]),
		async execute(itemIndex, run) {
			const path = update ? [readId(this, itemIndex, idOf(resource))] : [];
			const body = readBody(this, itemIndex, [JSON_BODY]).jsonBody as IDataObject;
			const method = update ? 'PUT' : 'POST';
			return [await sendToEntity(this, itemIndex, run, resource, { method, path, body })];
		},
	};
}

/** A catalogue entry with its body fields, published or of the specification. */
type WithFields = ResourceSpec & Pick<PublishedResource, 'fields' | 'jsonBody'>;

/** POST {host}/api/{path}: the created record. Not sent twice (the transport's rule for POST). */
export function publishedCreate(resource: WithFields): OperationModule {
	if (resource.jsonBody) return jsonBodyOperation(resource, 'create');
	return createOperation(resource, {
		properties: bodyProperties(resource, 'create'),
		mappingModes: true,
	});
}

/** PUT {host}/api/{path}/{id}: the changed record; fields not sent stay as they are. */
export function publishedUpdate(resource: WithFields): OperationModule {
	if (resource.jsonBody) return jsonBodyOperation(resource, 'update');
	return updateOperation(resource, idProperty(resource, 'change'), {
		properties: bodyProperties(resource, 'update'),
		mappingModes: true,
	});
}

/**
 * DELETE {host}/api/{path}/{id}: one item `{ id, deleted: true }`. A 404 is the service saying there
 * is no such record: an error of the item, never a success.
 */
export function publishedDelete(resource: ResourceSpec): OperationModule {
	return {
		description: updateDisplayOptions(shownForResource(resource, 'delete'), [
			idProperty(resource, 'delete'),
		]),
		async execute(itemIndex, run) {
			const segment = readId(this, itemIndex, idOf(resource));
			await sendToEntity(this, itemIndex, run, resource, { method: 'DELETE', path: [segment] });
			return [{ id: segment.value, deleted: true }];
		},
	};
}

/**
 * A change of a record's members: `{field}` names sent to {path}/{id}/{more} (a list's people, a
 * person's tags); at least one name is required. Built as Delete's: one item `{ id, <output>: names }`
 * (e.g. `{ id, tagsAdded: [...] }`), whatever the service answers (the published endpoints answer no
 * body; a body some system does answer is not output: decisions.md).
 */
export function membersOperation(
	resource: ResourceSpec,
	change: {
		operation: string;
		method: 'POST' | 'DELETE';
		more: readonly string[];
		verb: string;
		/** The output's key for the names sent, e.g. `tagsAdded`, `peopleRemoved`. */
		output: string;
	},
	field: PublishedField,
): OperationModule {
	const property: INodeProperties = fieldProperty(field);
	return {
		description: updateDisplayOptions(shownForResource(resource, change.operation), [
			idProperty(resource, change.verb),
			property,
		]),
		async execute(itemIndex, run) {
			const segment = readId(this, itemIndex, idOf(resource));
			const names = readBody(this, itemIndex, [property])[field.name];
			if (!Array.isArray(names) || names.length === 0)
				throw inputError(this, itemIndex, field.label, 'add at least one value');
			const call = {
				method: change.method,
				path: [segment, ...change.more],
				body: { [field.name]: names },
			};
			await sendToEntity(this, itemIndex, run, resource, call);
			return [{ id: segment.value, [change.output]: names }];
		},
	};
}
