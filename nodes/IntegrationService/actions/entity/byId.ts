import type { INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { MembersSpec, ResourceSpec } from '../../../shared/catalogue';
import { fieldProperties } from '../../helpers/form';
import { FIELDS } from '../../helpers/kinds';
import { locatorValue } from '../../helpers/kinds/locator';
import type { OperationModule } from '../modules';
import { readOutput, shapeRecord } from '../output';
import { readId, sendToEntity } from '../request';
import { versioned } from '../settings';
import { idOf, idProperties, shownFor } from './texts';

/** An operation's properties: the record's ID (version 2: picked from a list), then `more`. */
function byIdProperties(
	resource: ResourceSpec,
	operation: string,
	verb: string,
	[more1, more2]: INodeProperties[][] = [[], []],
): INodeProperties[] {
	const [id1, id2] = idProperties(resource, verb);
	return updateDisplayOptions(
		shownFor(resource, operation),
		versioned([id1, ...more1], [id2, ...more2]),
	);
}

/** GET or DELETE {host}/api/{path}/{id}; a 404 is an error of the item, never a success. */
export function byIdOperation(
	resource: ResourceSpec,
	operation: 'get' | 'delete',
): OperationModule {
	const id = idOf(resource);
	return {
		description: byIdProperties(resource, operation, operation),
		async execute(itemIndex, run) {
			const segment = readId(this, itemIndex, id);
			const choice = operation === 'get' && readOutput(this, itemIndex, undefined, resource.simple);
			const method = operation === 'get' ? 'GET' : 'DELETE';
			const path = [segment];
			const record = await sendToEntity(this, itemIndex, run, resource, { method, path });
			return [choice ? shapeRecord(record, choice) : { id: segment.value, deleted: true }];
		},
	};
}

/** A list's people, a person's tags: one item `{ id, <output>: names }` whatever the service answers. */
export function membersOperation(
	resource: ResourceSpec,
	operation: string,
	members: MembersSpec,
): OperationModule {
	const id = idOf(resource);
	const { field } = members;
	return {
		description: byIdProperties(resource, operation, members.verb, [
			[FIELDS.property(field)],
			fieldProperties([field], true),
		]),
		async execute(itemIndex, run) {
			const segment = readId(this, itemIndex, id);
			const raw = locatorValue(this.getNodeParameter(field.name, itemIndex, undefined));
			const names = FIELDS.read({ ctx: this, itemIndex, label: field.label }, field, raw);
			await sendToEntity(this, itemIndex, run, resource, {
				method: members.method,
				path: [segment, ...members.path],
				body: { [field.name]: names as string[] },
			});
			return [{ id: segment.value, [members.output]: names as string[] }];
		},
	};
}
