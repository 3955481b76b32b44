/**
 * nodes/shared/catalogue and the node's resource table: every Operation option has a module and
 * every module an option; a catalogue entry alone gives an entity its operations; the lists the
 * catalogue drives (Entities to Sync, trigger events, Connection ID) hold what they held.
 */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { entityResource, RESOURCE_MODULES } from '../../nodes/IntegrationService/actions/entity';
import type { ResourceSpec } from '../../nodes/shared/catalogue';
import {
	CONNECTION_RESOURCES,
	ENTITIES,
	LIST_KEYS,
	RESOURCES,
	SYNC_KINDS,
} from '../../nodes/shared/catalogue';

/** The entries of the service's CRM, LOS and calendar pages (crm-endpoints.md and the pages decisions.md cites). */
const PUBLISHED_RESOURCES = RESOURCES.filter((resource) => resource.source !== undefined);

/** The Operation option values a resource's properties offer. */
function offered(description: INodeProperties[], resource: string): string[] {
	const operation = description.find(
		(property) =>
			property.name === 'operation' &&
			property.displayOptions?.show?.resource?.includes(resource) === true,
	);
	return ((operation?.options ?? []) as INodePropertyOptions[]).map((option) =>
		String(option.value),
	);
}

/** A read entity only the catalogue knows (the shape the crm helper's entries take). */
export const SCRATCH: ResourceSpec = {
	value: 'scratchNote',
	label: 'Scratch Note',
	description: 'A note in the connected CRM (test only)',
	section: 'crm',
	host: 'crm',
	path: ['scratchNotes'],
	listKey: 'scratchNotes',
	id: { label: 'Scratch Note ID', name: 'scratchNoteId', placeholder: 'e.g. n-1' },
	operations: ['getAll', 'get'],
};

describe('resource indexes and the router', () => {
	test.each(Object.keys(RESOURCE_MODULES))(
		'%s: every Operation option has a module, every module an option',
		(resource) => {
			const { description, operations } = RESOURCE_MODULES[resource];
			expect(offered(description, resource).sort()).toEqual(Object.keys(operations).sort());
		},
	);

	test('every catalogue resource has an index, and every index a catalogue entry', () => {
		expect(Object.keys(RESOURCE_MODULES).sort()).toEqual(RESOURCES.map((r) => r.value).sort());
	});

	test('every catalogue operation has a module', () => {
		const missing = RESOURCES.flatMap((resource) =>
			resource.operations
				.filter((name) => !(name in RESOURCE_MODULES[resource.value].operations))
				.map((name) => `${resource.value}.${name}`),
		);
		expect(missing).toEqual([]);
	});
});

describe('a catalogue entry alone', () => {
	const scratch = entityResource(SCRATCH);

	test('gets Get and Get Many, with their fields shown only for them', () => {
		// The Operation option lists them in the order of their names (Get, Get Many).
		expect(offered(scratch.description, 'scratchNote')).toEqual(['get', 'getAll']);
		expect(Object.keys(scratch.operations).sort()).toEqual(['get', 'getAll']);
		const id = scratch.operations.get.description.find((p) => p.name === 'scratchNoteId');
		expect(id).toMatchObject({
			displayName: 'Scratch Note ID',
			required: true,
			displayOptions: { show: { resource: ['scratchNote'], operation: ['get'] } },
		});
		// Version 2's Options (the node-wide settings folded in) follows version 1's.
		const names = scratch.operations.getAll.description.map((property) => property.name);
		// Simplify twice: version 1's and version 2's (its hint names the simple form); toolCursor: a model's.
		expect(names).toEqual([
			'returnAll',
			'limit',
			'pageAtATime',
			'cursor',
			'toolCursor',
			'filters',
			'simplify',
			'simplify',
			'options',
			'options',
		]);
	});

	test('an operation no entity file knows gets no option (the index test above would name it)', () => {
		const odd = entityResource({ ...SCRATCH, operations: ['getAll', 'archive'] });
		expect(offered(odd.description, 'scratchNote')).toEqual(['getAll']);
	});
});

describe('what the catalogue drives', () => {
	test('27 sync flags in spec order; events for people and each of them', () => {
		expect(SYNC_KINDS).toHaveLength(27);
		expect(SYNC_KINDS[0]).toBe('appointments');
		const eventKinds = ENTITIES.filter((entity) => entity.events).map((entity) => entity.kind);
		expect(eventKinds).toEqual(['people', ...SYNC_KINDS]);
	});

	test('Connection ID shows on every resource that sends it, never on universal-only ones', () => {
		// Issue 30 adds the published entities (crm, los and calendar hosts): every one sends it.
		expect([...CONNECTION_RESOURCES].sort()).toEqual(
			[
				'borrower',
				'customApiCall',
				'document',
				'person',
				'webhook',
				...PUBLISHED_RESOURCES.map((resource) => resource.value),
			].sort(),
		);
	});

	test('the pager knows the list keys of the offered entities', () => {
		// Issue 30: each published entity's list key, as its 200 line names it.
		expect([...LIST_KEYS].sort()).toEqual(
			[
				'people',
				'borrowers',
				'documents',
				...PUBLISHED_RESOURCES.map((resource) => resource.listKey as string),
			].sort(),
		);
	});
});
