/**
 * The built node's description, as the editor receives it. Some properties are made by builders
 * (fieldGroup, addressesProperty, …), which n8n's lint rules cannot see into, so the rules those
 * literals would get are checked here on the result: options in alphabetical order, and every body
 * field of a field group of a type the field mapper reads.
 */
import { join } from 'path';

import type {
	INodeParameters,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { packageRoot } from '../harness/package-root';

const { IntegrationService } = require(
	join(packageRoot(), 'dist/nodes/IntegrationService/IntegrationService.node.js'),
) as {
	IntegrationService: new () => {
		description: {
			properties: INodeProperties[];
			version: number | number[];
			defaultVersion?: number;
		} & INodeTypeDescription;
	};
};
const properties = new IntegrationService().description.properties;

type Child = INodeProperties | INodePropertyOptions | INodePropertyCollection;

/** The label of a property or a fixed collection's group; a plain option has a name instead. */
const labelOf = (child: Child): string => ('displayName' in child ? child.displayName : child.name);

/** Every property, nested ones included, with the path of display names that leads to it. */
function walk(
	list: readonly Child[],
	path: string[] = [],
): Array<{ path: string; property: INodeProperties }> {
	return list.flatMap((child) => {
		if (!('type' in child)) {
			const values = (child as INodePropertyCollection).values;
			return values ? walk(values, [...path, labelOf(child)]) : [];
		}
		const here = { path: [...path, child.displayName].join(' › '), property: child };
		const nested =
			child.type === 'options' || child.type === 'multiOptions'
				? []
				: ((child.options ?? []) as Child[]);
		return [here, ...walk(nested, [...path, child.displayName])];
	});
}

const CUSTOM_API_CALL = 'Custom API Call';
const collator = (a: string, b: string) => a.localeCompare(b, 'en', { sensitivity: 'base' });
const isSorted = (names: string[]) =>
	names.every((name, index) => index === 0 || collator(names[index - 1], name) <= 0);

describe('node description', () => {
	const all = walk(properties);

	test('walks the whole description (the mapper-built groups included)', () => {
		const paths = all.map((entry) => entry.path);
		expect(paths).toEqual(
			expect.arrayContaining(['Additional Fields › Emails', 'Update Fields › Bio', 'Mapping Mode']),
		);
	});

	test.each(['collection', 'fixedCollection'] as const)(
		'the fields of every %s are in alphabetical order',
		(type) => {
			const unsorted = all
				.filter(({ property }) => property.type === type)
				.filter(({ property }) => !isSorted(((property.options ?? []) as Child[]).map(labelOf)))
				.map(({ path }) => path);
			expect(unsorted).toEqual([]);
		},
	);

	// Resource is in the catalogue's order, Person first (test/unit/simple-catalogue.test.ts).
	test('the choices of every options parameter but Operation and Resource are in alphabetical order', () => {
		const unsorted = all
			.filter(
				({ property }) =>
					property.type === 'options' && !['operation', 'resource'].includes(property.name),
			)
			.filter(
				({ property }) =>
					!isSorted(
						((property.options ?? []) as INodePropertyOptions[]).map((option) => option.name),
					),
			)
			.map(({ path }) => path);
		expect(unsorted).toEqual([]);
	});

	// n8n adds its own "Custom API Call" (a pointer to the HTTP Request node) to every operation list
	// whose last option has another name: our resource's one operation has that name, so n8n adds none.
	test("Custom API Call's one operation is named Custom API Call", () => {
		const ours = all.find(
			({ property }) =>
				property.name === 'operation' &&
				(property.displayOptions?.show?.resource ?? []).includes('customApiCall'),
		)!;
		expect((ours.property.options as INodePropertyOptions[]).map((o) => o.name)).toEqual([
			CUSTOM_API_CALL,
		]);
	});

	// n8n (load-nodes-and-credentials.js injectCustomApiCallOptions, the same in 1.123.81, 2.16.1 and
	// 2.41.1) adds its "Custom API Call" (to the HTTP Request node) to the Resource and Operation lists
	// of a node whose defaultVersion is absent or equal to its version (a number), unless the list's last
	// option already has that name. Ours is the only one: the node has versions [1, 2], and Custom API
	// Call is the Resource list's last option.
	test('n8n adds no Custom API Call of its own to the Resource list: ours is the one', () => {
		const { version, defaultVersion } = new IntegrationService().description;
		const injected = defaultVersion === undefined || defaultVersion === version;
		const resource = properties.find((property) => property.name === 'resource')!;
		const names = (resource.options as INodePropertyOptions[]).map((option) => option.name);
		expect(names.filter((name) => name === CUSTOM_API_CALL)).toEqual([CUSTOM_API_CALL]);
		expect(names[names.length - 1]).toBe(CUSTOM_API_CALL);
		expect(injected).toBe(false);
	});

	test('every field in Additional Fields or Update Fields is of a type the field mapper reads', () => {
		// A locator (version 2's reference, helpers/kinds/locator.ts) is read as its ID.
		const readable = new Set(['string', 'number', 'boolean', 'json', 'resourceLocator']);
		// The compound kinds (helpers/kinds: contact.ts (emails, phones, addresses), flags.ts), by their fields' names.
		const compound = new Set([
			'emails',
			'phones',
			'addresses',
			'entitiesToSync',
			'communicationsConsent',
		]);
		// A list of objects (helpers/kinds/objectList.ts): one `values` group of readable parts.
		const objectList = (property: INodeProperties) => {
			const groups = (property.options ?? []) as INodePropertyCollection[];
			return (
				property.type === 'fixedCollection' &&
				groups.length === 1 &&
				groups[0].name === 'values' &&
				groups[0].values.every((part) => readable.has(part.type))
			);
		};
		const unreadable = all
			.filter(({ path }) => /^(Additional|Update) Fields › [^›]+$/.test(path))
			.filter(
				({ property }) =>
					!readable.has(property.type) && !compound.has(property.name) && !objectList(property),
			)
			.map(({ path, property }) => `${path} (${property.type})`);
		expect(unreadable).toEqual([]);
	});
});

describe('write-only fields', () => {
	test('Password (User › Create) is masked in the editor; no other field is', () => {
		const masked = walk(properties).filter(({ property }) => property.typeOptions?.password);
		expect(masked.map(({ path }) => path)).toEqual(['Additional Fields › Password']);
		const group = properties.find((p) =>
			p.options?.some((o) => 'name' in o && o.name === 'password'),
		);
		expect(group?.displayOptions?.show).toMatchObject({
			resource: ['user'],
			operation: ['create'],
		});
	});
});

/** The top-level parameters the editor shows for an operation at a version, its defaults filled in. */
function shownAt(typeVersion: number, resource: string, operation: string): INodeProperties[] {
	const description = new IntegrationService().description;
	const parameters = { resource, operation };
	const node = {
		name: 'n',
		type: 'n',
		typeVersion,
		parameters,
		position: [0, 0] as [number, number],
	};
	const values = NodeHelpers.getNodeParameters(
		properties,
		parameters,
		true,
		false,
		node,
		description,
	) as INodeParameters;
	return properties.filter((p) => NodeHelpers.displayParameter(values, p, node, description));
}

const OPERATIONS = properties
	.filter((p) => p.name === 'operation')
	.flatMap((p) =>
		((p.options ?? []) as INodePropertyOptions[]).map((option) => [
			(p.displayOptions?.show?.resource as string[])[0],
			String(option.value),
		]),
	);

describe('parameters shown together', () => {
	// n8n keeps one value per parameter name: two shown at once would read and write the same value.
	test.each([1, 2])('at version %s, no operation shows two parameters of one name', (version) => {
		expect(OPERATIONS.length).toBeGreaterThan(60);
		const twice = OPERATIONS.flatMap(([resource, operation]) => {
			const names = shownAt(version, resource, operation).map((p) => p.name);
			return names
				.filter((name, at) => names.indexOf(name) !== at)
				.map((name) => `${resource}.${operation}: ${name}`);
		});
		expect(twice).toEqual([]);
	});

	test.each(['find', 'upsert'])(
		'Person › %s offers Fields to Return and Form, and its notice names where the pace is set',
		(operation) => {
			const collection = (version: number, name: string) =>
				shownAt(version, 'person', operation)
					.filter((p) => p.name === name)
					.flatMap((p) => (p.options as INodeProperties[]).map((option) => option.name));
			const notice = (version: number) =>
				shownAt(version, 'person', operation).find((p) => p.name === 'peopleIndexNotice')
					?.displayName;
			expect(collection(1, 'output')).toEqual(['fields', 'form']);
			expect(collection(2, 'options')).toEqual(
				expect.arrayContaining(['credentialId', 'fields', 'form', 'maxRequestsPerSecond']),
			);
			expect(notice(1)).toContain('at the pace of Request Options › Max Requests Per Second');
			expect(notice(2)).toContain('at the pace of Options › Max Requests Per Second');
		},
	);
});
