/**
 * Get Many's Filters (nodes/IntegrationService/search/filters.ts), pure: each
 * condition on the shapes answers take on different connected systems, the conditions read from the
 * parameter (and refused before anything is sent), and the parameter made from the catalogue.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';

import { personResource } from '../../nodes/shared/catalogue/person';
import { RESOURCES } from '../../nodes/shared/catalogue';
import type { FilterCondition } from '../../nodes/IntegrationService/search/filters';
import {
	fieldValues,
	filtersProperty,
	meets,
	OTHER_FIELD,
	readFilters,
	recordFilter,
} from '../../nodes/IntegrationService/search/filters';

const ada: IDataObject = {
	id: 11,
	firstName: 'Ada',
	stage: 'Lead',
	tags: ['Buyer', 'VIP'],
	averagePrice: 450000,
	rating: '4',
	archived: 0,
	active: true,
	emails: [{ value: 'Ada@X.test', isPrimary: 1 }],
	addresses: [{ city: 'Austin' }, { city: 'Denver' }],
	created: '2024-05-01T15:00:00Z',
	updatedAt: 1714579200000,
	companyName: '',
	jobTitle: null,
};
const is = (field: string, operator: FilterCondition['operator'], value = '') =>
	meets(ada, { field, operator, value });

describe('conditions', () => {
	it('equals: text in any case, numbers as numbers, booleans as true/1', () => {
		expect(is('stage', 'equals', ' lead ')).toBe(true);
		expect(is('stage', 'equals', 'Prospect')).toBe(false);
		expect(is('averagePrice', 'equals', '450000.00')).toBe(true);
		expect(is('id', 'equals', '11')).toBe(true);
		expect(is('rating', 'equals', '4')).toBe(true);
		expect(is('archived', 'equals', 'false')).toBe(true);
		expect(is('archived', 'equals', 'true')).toBe(false);
		expect(is('active', 'equals', 'TRUE')).toBe(true);
		expect(is('active', 'equals', '1')).toBe(true);
		expect(is('active', 'equals', 'yes')).toBe(false);
		expect(meets({ zip: '02108' }, { field: 'zip', operator: 'equals', value: '2108' })).toBe(
			false,
		);
	});

	it('equals and contains on a list: any entry; a contact value by its value', () => {
		expect(is('tags', 'equals', 'vip')).toBe(true);
		expect(is('emails', 'equals', 'ada@x.test')).toBe(true);
		expect(is('emails', 'contains', '@X.TEST')).toBe(true);
		expect(is('addresses.city', 'equals', 'denver')).toBe(true);
		expect(is('firstName', 'contains', 'd')).toBe(true);
		expect(is('firstName', 'contains', 'z')).toBe(false);
	});

	it('is empty: missing, null, blank text and an empty list; is not empty: the rest', () => {
		for (const field of ['companyName', 'jobTitle', 'nothing', 'addresses.street'])
			expect([is(field, 'isEmpty'), is(field, 'isNotEmpty')]).toEqual([true, false]);
		for (const field of ['tags', 'archived', 'emails', 'averagePrice'])
			expect([is(field, 'isEmpty'), is(field, 'isNotEmpty')]).toEqual([false, true]);
		expect(meets({ tags: [] }, { field: 'tags', operator: 'isEmpty', value: '' })).toBe(true);
	});

	it('on or after / on or before: ISO text or epoch ms; a day alone is that whole day', () => {
		expect(is('created', 'onOrAfter', '2024-05-01')).toBe(true);
		expect(is('created', 'onOrBefore', '2024-05-01')).toBe(true);
		expect(is('created', 'onOrAfter', '2024-05-02')).toBe(false);
		expect(is('created', 'onOrBefore', '2024-04-30')).toBe(false);
		expect(is('created', 'onOrBefore', '2024-05-01T14:59:59Z')).toBe(false);
		expect(is('created', 'onOrAfter', String(Date.parse('2024-05-01T15:00:00Z')))).toBe(true);
		// `updated` reads `updatedAt` (uuid connections), an epoch ms number.
		expect(is('updated', 'onOrAfter', '2024-05-01T16:00:00Z')).toBe(true);
		expect(is('updated', 'onOrAfter', '2024-05-01T16:00:01Z')).toBe(false);
		expect(is('stage', 'onOrAfter', '2024-01-01')).toBe(false);
	});

	it('a date-only bound keeps every time of that day, property', () => {
		const day = fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31') });
		fc.assert(
			fc.property(day, fc.nat(86_399_999), (date, into) => {
				const iso = date.toISOString().slice(0, 10);
				const record = { at: new Date(Date.parse(iso) + into).toISOString() };
				expect(meets(record, { field: 'at', operator: 'onOrBefore', value: iso })).toBe(true);
				expect(meets(record, { field: 'at', operator: 'onOrAfter', value: iso })).toBe(true);
			}),
		);
	});

	it('all conditions must hold; none keeps every record', () => {
		const keep = recordFilter([
			{ field: 'stage', operator: 'equals', value: 'lead' },
			{ field: 'tags', operator: 'equals', value: 'vip' },
		]);
		expect(keep(ada)).toBe(true);
		expect(keep({ ...ada, tags: ['buyer'] })).toBe(false);
		expect(recordFilter([])({})).toBe(true);
	});

	it('the values of a field, whatever the shape', () => {
		expect(fieldValues(ada, 'emails')).toEqual(['Ada@X.test']);
		expect(fieldValues({ created: null, createdAt: 'x' }, 'created')).toEqual(['x']);
		expect(fieldValues({ a: [[1]], b: { c: 'd' } }, 'a')).toEqual([]);
		expect(fieldValues({ b: { c: 'd' } }, 'b.c')).toEqual(['d']);
	});
});

describe('the Filters parameter', () => {
	it('reads conditions, a typed field name for Other, and refuses a bad one naming it', () => {
		expect(
			readFilters({
				conditions: [
					{ field: 'stage', operator: 'equals', value: 'Lead' },
					{ field: OTHER_FIELD, fieldName: ' addresses.city ', operator: 'isEmpty' },
				],
			}),
		).toEqual({
			conditions: [
				{ field: 'stage', operator: 'equals', value: 'Lead' },
				{ field: 'addresses.city', operator: 'isEmpty', value: '' },
			],
		});
		expect(readFilters(undefined)).toEqual({ conditions: [] });
		expect(readFilters({ conditions: [{ field: OTHER_FIELD, fieldName: '' }] })).toEqual({
			problem: 'Filters › Condition 1 names no field',
		});
		expect(
			readFilters({
				conditions: [
					{ field: 'id', operator: 'isNotEmpty' },
					{ field: 'created', operator: 'onOrAfter', value: 'last week' },
				],
			}),
		).toEqual({
			problem:
				'Filters › Condition 2 on "created": "last week" is not a date or time (use ISO 8601 such as 2024-05-01 or 2024-05-01T09:00:00Z, or epoch milliseconds)',
		});
		expect(readFilters({ conditions: [{ field: 'id', operator: 'startsWith' }] })).toEqual({
			problem: 'Filters › Condition 1 has no condition "startsWith"',
		});
	});

	it("offers the entity's own readable fields, the record's, and Other", () => {
		const property = filtersProperty(personResource);
		expect(property).toMatchObject({ name: 'filters', type: 'fixedCollection', default: {} });
		const [conditions] = property.options as unknown as Array<{
			name: string;
			values: IDataObject[];
		}>;
		const field = conditions.values.find((value) => value.name === 'field') as IDataObject;
		const values = (field.options as Array<{ value: string }>).map((option) => option.value);
		expect(values).toEqual(
			expect.arrayContaining(['id', 'created', 'updated', 'stage', 'emails', 'tags']),
		);
		expect(values).not.toContain('addresses');
		expect(values).toContain(OTHER_FIELD);
		expect(values).toContain(field.default);
	});

	it('is made for every entity of the catalogue', () => {
		for (const resource of RESOURCES) expect(filtersProperty(resource).name).toBe('filters');
	});
});
