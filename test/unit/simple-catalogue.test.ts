/**
 * What the catalogue declares for the forms in the user's words: each entity's simple form (the
 * fields Simplify keeps at version 2, a model's default) and the order of the Resource list.
 */
import type { FieldSpec, ResourceSpec } from '../../nodes/shared/catalogue';
import { RECORD_KEYS, RESOURCES, SECTIONS } from '../../nodes/shared/catalogue';

const LISTED = RESOURCES.filter((resource) => resource.operations.includes('getAll')).map(
	(resource) => [resource.value, resource] as const,
);
const fieldOf = (resource: ResourceSpec, name: string): FieldSpec | undefined =>
	(resource.fields ?? []).find((field) => field.name === name);
/** created/updated and createdAt/updatedAt are one pair of times, spelt by the connected system. */
const ALTERNATE_TIMES = 2;

describe('the simple form of each entity with Get Many', () => {
	test.each(LISTED)(
		'%s: names only its fields, its documented record keys, or a contact list’s primary',
		(_value, resource) => {
			expect(resource.simple).toBeDefined();
			const unknown = resource.simple!.filter((key) =>
				typeof key === 'string'
					? !fieldOf(resource, key) &&
						!RECORD_KEYS.includes(key) &&
						!(resource.readKeys ?? []).includes(key)
					: !['emails', 'phones'].includes(fieldOf(resource, key.primaryOf)?.type ?? ''),
			);
			expect(unknown).toEqual([]);
		},
	);

	test.each(LISTED)('%s: the ID first, about ten fields, each named once', (_value, resource) => {
		const names = resource.simple!.map((key) => (typeof key === 'string' ? key : key.name));
		expect(names[0]).toBe('id');
		expect(new Set(names).size).toBe(names.length);
		expect(names.length - ALTERNATE_TIMES).toBeLessThanOrEqual(10);
	});

	test.each(LISTED)('%s: its read-only keys are not also fields', (_value, resource) => {
		const twice = (resource.readKeys ?? []).filter(
			(key) => fieldOf(resource, key) || RECORD_KEYS.includes(key),
		);
		expect(twice).toEqual([]);
	});
});

describe('the Resource list', () => {
	test('Person first, then the CRM, loan and calendar records, administration, Custom API Call last', () => {
		expect(RESOURCES[0].value).toBe('person');
		expect(RESOURCES[RESOURCES.length - 1].value).toBe('customApiCall');
		const sections = RESOURCES.map((resource) => SECTIONS.indexOf(resource.section));
		expect(sections).toEqual([...sections].sort((a, b) => a - b));
		const administration = RESOURCES.filter((resource) => resource.section === 'administration');
		expect(administration.map((resource) => resource.label)).toEqual([
			'Authorization Link',
			'Calendar Webhook',
			'Credential',
			'CRM Webhook',
		]);
		expect(RESOURCES.filter((r) => r.section === 'loanAndCalendar').map((r) => r.value)).toEqual([
			'borrower',
			'calendar',
			'calendarEvent',
			'document',
			'loan',
		]);
	});

	test('within a section, by label', () => {
		for (const section of SECTIONS) {
			const labels = RESOURCES.filter((r) => r.section === section).map((r) => r.label);
			expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b, 'en')));
		}
	});
});
