import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { ResourceSpec } from '../../../shared/catalogue';
import { listPeopleField } from '../../../shared/catalogue/crmAccount';
import type { PublishedResource } from '../../../shared/catalogue/published';
import { PUBLISHED_RESOURCES } from '../../../shared/catalogue/publishedResources';
import { nounsOf, withArticle } from '../generic/entity';
import type { ResourceModule } from '../generic/resource';
import { genericResource } from '../generic/resource';
import type { OperationModule } from '../node.type';
import { membersOperation, publishedCreate, publishedDelete, publishedUpdate } from './write';

/**
 * The node's resources of the published endpoints (issue 30): the catalogue's generic Get and Get
 * Many, and the write operations written here, under one Operation option in the order of names.
 */

interface Written {
	name: string;
	verb: string;
	module(resource: PublishedResource): OperationModule;
}

const members = (operation: string, method: 'POST' | 'DELETE', verb: string): Written => {
	const add = operation === 'addPeople';
	const change = { operation, method, more: ['people'], verb };
	const output = add ? 'peopleAdded' : 'peopleRemoved';
	return {
		name: add ? 'Add People' : 'Remove People',
		verb,
		module: (resource) => membersOperation(resource, { ...change, output }, listPeopleField),
	};
};

const WRITES: Record<string, Written> = {
	addPeople: members('addPeople', 'POST', 'add people to'),
	create: { name: 'Create', verb: 'create', module: publishedCreate },
	delete: { name: 'Delete', verb: 'delete', module: publishedDelete },
	removePeople: members('removePeople', 'DELETE', 'remove people from'),
	update: { name: 'Update', verb: 'update', module: publishedUpdate },
};

function option(resource: PublishedResource, operation: string): INodePropertyOptions {
	const { one } = nounsOf(resource);
	const { name, verb } = WRITES[operation];
	const sentence = `${verb[0].toUpperCase()}${verb.slice(1)} ${withArticle(one)}`;
	return { name, value: operation, description: sentence, action: sentence };
}

/** The generic index of the entry with its written operations added, options in the order of names. */
function publishedResource(resource: PublishedResource): ResourceModule {
	const generic = genericResource(resource);
	const names = resource.operations.filter((operation) => operation in WRITES);
	const operations: Record<string, OperationModule> = { ...generic.operations };
	for (const name of names) operations[name] = WRITES[name].module(resource);
	const [genericOperation, ...genericFields] = generic.description;
	const options = [
		...((genericOperation.options ?? []) as INodePropertyOptions[]),
		...names.map((name) => option(resource, name)),
	].sort((a, b) => a.name.localeCompare(b.name, 'en'));
	const operation: INodeProperties = { ...genericOperation, options };
	operation.default = options[0]?.value ?? '';
	return {
		description: [
			operation,
			...genericFields,
			...names.flatMap((name) => operations[name].description),
		],
		operations,
	};
}

/** The index of a catalogue resource that has none of its own: published or generic. */
export function catalogueIndex(resource: ResourceSpec): ResourceModule {
	const published = PUBLISHED_RESOURCES.find((entry) => entry === resource);
	return published ? publishedResource(published) : genericResource(resource);
}
