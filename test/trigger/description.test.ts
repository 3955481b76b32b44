/**
 * The trigger's parameters as the editor and n8n's engine read them, pure (no server): version 1.2's
 * events by name drawn from the catalogue, versions 1 and 1.1 unchanged, and the Filters' parameters
 * kept or dropped by n8n's own parameter resolution (NodeHelpers.getNodeParameters) as a saved
 * workflow and a run see them.
 */
import type { INodeParameters, INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { IntegrationServiceTrigger } from '../../nodes/IntegrationServiceTrigger/IntegrationServiceTrigger.node';
import { EVENT_OBJECTS, kindLabel } from '../../nodes/IntegrationServiceTrigger/events';
import { ENTITIES } from '../../nodes/shared/catalogue';

const description = new IntegrationServiceTrigger().description;
const ACTIONS = ['Created', 'Updated', 'Deleted'];

/** The properties a node of this version shows for these parameters, after n8n fills in the defaults. */
function resolved(typeVersion: number, parameters: INodeParameters, returnDefaults = true) {
	const node = {
		name: 't',
		type: 'trigger',
		typeVersion,
		parameters,
		position: [0, 0] as [number, number],
	};
	const values = NodeHelpers.getNodeParameters(
		description.properties,
		parameters,
		returnDefaults,
		false,
		node,
		description,
	) as INodeParameters;
	const shown = description.properties.filter((p) =>
		NodeHelpers.displayParameter(values, p, node, description),
	);
	return { values, shown };
}

const eventOptions = (typeVersion: number): INodePropertyOptions[] => {
	const events = resolved(typeVersion, {}).shown.find(
		(p) => p.name === 'events',
	) as INodeProperties;
	return events.options as INodePropertyOptions[];
};

describe('events by name (version 1.2)', () => {
	const named = eventOptions(1.2);

	test('every kind with events in the catalogue has "<Object> Created|Updated|Deleted", valued and hinted by its wire name', () => {
		const kinds = ENTITIES.filter((entity) => entity.events);
		expect(kinds.length).toBeGreaterThan(20);
		for (const entity of kinds) {
			const label = entity.resource?.label ?? kindLabel(entity.kind);
			for (const action of ACTIONS) {
				const wire = `${entity.kind}${action}`;
				expect(named.filter((o) => o.value === wire)).toEqual([
					{ name: `${label} ${action}`, value: wire, description: `\`${wire}\`` },
				]);
			}
		}
		expect(named).toHaveLength(1 + kinds.length * 3);
	});

	test('Any Event first, then Person, then the objects from A to Z, each Created, Updated, Deleted', () => {
		expect(named.slice(0, 4).map((o) => o.name)).toEqual([
			'Any Event',
			'Person Created',
			'Person Updated',
			'Person Deleted',
		]);
		const objects = EVENT_OBJECTS.map((o) => o.label);
		expect(objects[0]).toBe('Person');
		expect(objects.slice(1)).toEqual(
			[...objects.slice(1)].sort((a, b) => a.localeCompare(b, 'en')),
		);
		expect(new Set(objects).size).toBe(objects.length);
		expect(named.slice(1).map((o) => o.name)).toEqual(
			objects.flatMap((label) => ACTIONS.map((action) => `${label} ${action}`)),
		);
		// Read as words: no camelCase wire name left in a name.
		for (const option of named) expect(option.name).not.toMatch(/[a-z][A-Z]/);
	});

	test('kinds with no resource of the node are named from their key', () => {
		expect(
			['offices', 'properties', 'taskTemplates', 'emailThreads', 'peopleRelationships'].map(
				kindLabel,
			),
		).toEqual(['Office', 'Property', 'Task Template', 'Email Thread', 'People Relationship']);
		expect(named.map((o) => o.name)).toContain('Loan Updated');
	});

	test('1.2 offers exactly the values 1 and 1.1 offer, so a stored list of events reads the same in each', () => {
		const values = (options: INodePropertyOptions[]) => options.map((o) => o.value).sort();
		expect(values(named)).toEqual(values(eventOptions(1.1)));
	});
});

describe('versions 1 and 1.1 keep their events', () => {
	test.each([1, 1.1])(
		'version %s: the wire names from A to Z after Any Event, with no hint',
		(version) => {
			const kinds = ENTITIES.filter((entity) => entity.events).map((entity) => entity.kind);
			const wire = kinds
				.flatMap((kind) => ACTIONS.map((action) => `${kind}${action}`))
				.sort((a, b) => a.localeCompare(b));
			expect(eventOptions(version)).toEqual([
				{ name: 'Any Event', value: '*', description: 'Every event delivered to this trigger' },
				...wire.map((name) => ({ name, value: name })),
			]);
		},
	);
});

describe("the Filters' parameters through n8n's resolution (version 1.2)", () => {
	const filter = { filter: [{ field: 'stage', value: 'Lead' }] };
	const kept = (parameters: INodeParameters, returnDefaults = true) => {
		const { values } = resolved(1.2, parameters, returnDefaults);
		return { mode: values.filtersMode, fields: values.filterFields, json: values.filters };
	};

	test('with Create and Delete Webhooks at its default, the fields are kept for the run and for saving', () => {
		expect(kept({ filterFields: filter })).toEqual({
			mode: 'fields',
			fields: { filter: [{ field: 'stage', valueType: 'string', value: 'Lead' }] },
			json: undefined,
		});
		expect(kept({ filterFields: filter }, false).fields).toEqual(filter);
		expect(kept({ filtersMode: 'json', filters: '{"a": 1}' }).json).toBe('{"a": 1}');
	});

	test('with Register Webhook on Activation, the Filters show even if Create and Delete Webhooks was turned off before', () => {
		for (const manageWebhooks of [undefined, false]) {
			const parameters = { registerWebhook: true, manageWebhooks, filterFields: filter };
			expect(kept(parameters).fields).toBeDefined();
		}
	});

	test('with neither, no Filters are shown or kept', () => {
		const { values, shown } = resolved(1.2, { manageWebhooks: false, filterFields: filter });
		expect(values.filterFields).toBeUndefined();
		expect(shown.map((p) => p.name)).not.toContain('filtersMode');
	});

	test('versions 1 and 1.1 show no Filters mode or fields', () => {
		for (const version of [1, 1.1]) {
			const names = resolved(version, { manageWebhooks: true }).shown.map((p) => p.name);
			expect(names).toContain('filters');
			expect(names).not.toContain('filtersMode');
			expect(names).not.toContain('filterFields');
		}
	});
});
