/**
 * A read entity added to the catalogue, and nowhere else, is offered with Get and Get Many and runs:
 * the scratch entry below is pushed into the built catalogue before n8n loads the package (it is not
 * shipped), and the node then lists, pages and gets it over real HTTP with the item's Connection ID.
 */
import { join } from 'path';

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import type { EntitySpec } from '../../nodes/shared/catalogue';
import { runNode } from '../harness/engine';
import { packageRoot } from '../harness/package-root';
import { credentialsFor, sendJson, useHostile } from '../hostile/server';

const scratch: EntitySpec = {
	kind: 'scratchNotes',
	syncFlag: false,
	events: false,
	resource: {
		value: 'scratchNote',
		label: 'Scratch Note',
		description: 'A note in the connected CRM (test only)',
		section: 'crm',
		host: 'crm',
		path: ['scratchNotes'],
		listKey: 'scratchNotes',
		id: { label: 'Scratch Note ID', name: 'scratchNoteId', placeholder: 'e.g. n-1' },
		noun: { one: 'note', many: 'notes' },
		operations: ['getAll', 'get'],
	},
};
// Before anything loads the built node: the catalogue's lists are computed when it is first imported.
(
	require(join(packageRoot(), 'dist/nodes/shared/catalogue/entities.js')) as {
		ENTITIES: EntitySpec[];
	}
).ENTITIES.push(scratch);

const service = useHostile();
const NOTES = [
	{ id: 'n-1', body: 'first', original: { raw: 1 } },
	{ id: 'n-2', body: 'second', original: { raw: 2 } },
	{ id: 'n-3', body: 'third', original: { raw: 3 } },
];

beforeEach(() =>
	service.script((request, res) => {
		const url = new URL(request.url, service.origin);
		if (url.pathname === '/api/scratchNotes') {
			const offset = Number(url.searchParams.get('offset') ?? 0);
			const limit = Number(url.searchParams.get('limit') ?? 100);
			const page = NOTES.slice(offset, offset + limit);
			sendJson(res, 200, { scratchNotes: page, _metadata: { total: NOTES.length, offset, limit } });
		} else if (url.pathname === '/api/scratchNotes/n%2F2') {
			sendJson(res, 200, NOTES[1]);
		} else sendJson(res, 404, { message: 'no such note' });
	}),
);

describe('a catalogue-only entity', () => {
	test('the editor offers it as a resource with Get and Get Many, and its Connection ID', () => {
		const { IntegrationService } = require(
			join(packageRoot(), 'dist/nodes/IntegrationService/IntegrationService.node.js'),
		) as { IntegrationService: new () => { description: { properties: INodeProperties[] } } };
		const properties = new IntegrationService().description.properties;
		const resource = properties.find((property) => property.name === 'resource');
		expect((resource?.options as INodePropertyOptions[]).map((option) => option.value)).toContain(
			'scratchNote',
		);
		const operation = properties.find(
			(property) =>
				property.name === 'operation' &&
				property.displayOptions?.show?.resource?.includes('scratchNote'),
		);
		// In the order of their names, as every resource's Operation option.
		expect((operation?.options as INodePropertyOptions[]).map((option) => option.name)).toEqual([
			'Get',
			'Get Many',
		]);
		const connection = properties.find((property) => property.name === 'credentialId');
		expect(connection?.displayOptions?.show?.resource).toContain('scratchNote');
	});

	test('Get Many with a Limit reads page by page from its path, simplified, with the Connection ID', async () => {
		const result = await runNode({
			parameters: {
				resource: 'scratchNote',
				operation: 'getAll',
				limit: 3,
				options: { pageSize: 2 },
				credentialId: 'conn-7',
			},
			credentials: credentialsFor(service.origin),
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual(
			NOTES.map(({ original: _original, ...note }) => note),
		);
		expect(service.received.map((request) => `${request.method} ${request.url}`)).toEqual([
			'GET /api/scratchNotes?limit=2&offset=0',
			'GET /api/scratchNotes?limit=1&offset=2',
		]);
		expect(service.received.map((r) => r.headers['x-service-credential-id'])).toEqual([
			'conn-7',
			'conn-7',
		]);
	});

	test('Get reads one record by its ID, encoded as one segment; an empty ID is named by its label', async () => {
		const result = await runNode({
			parameters: { resource: 'scratchNote', operation: 'get', scratchNoteId: 'n/2' },
			credentials: credentialsFor(service.origin),
		});
		expect(result.error).toBeUndefined();
		expect(result.items.map((item) => item.json)).toEqual([NOTES[1]]);
		expect(service.received.map((request) => `${request.method} ${request.url}`)).toEqual([
			'GET /api/scratchNotes/n%2F2',
		]);
		expect(service.received[0].headers['x-service-credential-id']).toBe('cred-1');

		const empty = await runNode({
			parameters: { resource: 'scratchNote', operation: 'get', scratchNoteId: ' ' },
			credentials: credentialsFor(service.origin),
		});
		expect(empty.error?.message).toBe('Scratch Note ID: is required but empty (item 0)');
		expect(service.received).toHaveLength(1);
	});
});
