import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { listPeopleField } from '../../../shared/catalogue/crmAccount';
import type { PublishedResource } from '../../../shared/catalogue/published';
import { PUBLISHED_RESOURCES } from '../../../shared/catalogue/publishedResources';
import type { OperationModule } from '../node.type';
import { createOperation, deleteOperation, membersOperation, updateOperation } from './write';

/**
 * The node's resources of the published endpoints (issue 30): each catalogue entry's write
 * operations, with their Operation option. Get and Get Many come from the catalogue's generic
 * operations (issue 29) once they are merged; until then an entry offers only what is written here.
 */

interface Written {
	name: string;
	verb: string;
	module(resource: PublishedResource): OperationModule;
}

const WRITES: Record<string, Written> = {
	addPeople: {
		name: 'Add People',
		verb: 'add people to',
		module: (resource) =>
			membersOperation(resource, 'addPeople', 'POST', ['people'], listPeopleField, 'add people to'),
	},
	create: { name: 'Create', verb: 'create', module: createOperation },
	delete: { name: 'Delete', verb: 'delete', module: deleteOperation },
	removePeople: {
		name: 'Remove People',
		verb: 'remove people from',
		module: (resource) =>
			membersOperation(
				resource,
				'removePeople',
				'DELETE',
				['people'],
				listPeopleField,
				'remove people from',
			),
	},
	update: { name: 'Update', verb: 'update', module: updateOperation },
};

function option(resource: PublishedResource, operation: string): INodePropertyOptions {
	const one = resource.noun?.one ?? resource.label.toLowerCase();
	const { name, verb } = WRITES[operation];
	const article = /^[aeiou]/.test(one) ? 'an' : 'a';
	const sentence = `${verb[0].toUpperCase()}${verb.slice(1)} ${article} ${one}`;
	return { name, value: operation, description: sentence, action: sentence };
}

export interface PublishedModule {
	description: INodeProperties[];
	operations: Record<string, OperationModule>;
}

/** A resource's Operation option and operation modules: the written ones the catalogue lists. */
export function publishedResource(resource: PublishedResource): PublishedModule {
	const names = resource.operations.filter((operation) => operation in WRITES);
	const operations: Record<string, OperationModule> = {};
	for (const name of names) operations[name] = WRITES[name].module(resource);
	const operation: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [resource.value] } },
		options: names.map((name) => option(resource, name)),
		default: '',
	};
	// The resource's first operation, as the editor preselects it (the lint wants a literal above).
	operation.default = names[0] ?? '';
	return {
		description: [operation, ...names.flatMap((name) => operations[name].description)],
		operations,
	};
}

/** Every published resource the node offers now: those with at least one written operation. */
export const PUBLISHED_MODULES: Record<string, PublishedModule> = Object.fromEntries(
	PUBLISHED_RESOURCES.filter((resource) =>
		resource.operations.some((operation) => operation in WRITES),
	).map((resource) => [resource.value, publishedResource(resource)]),
);

export const publishedDescription: INodeProperties[] = Object.values(PUBLISHED_MODULES).flatMap(
	(module) => module.description,
);
