/**
 * nodes/IntegrationService/helpers/body.ts and the kinds (helpers/kinds): the request body from the
 * form, the input item or Record (JSON), with a fake IExecuteFunctions. Small forms of catalogue
 * fields are built here; each field's kind reads it as in the node.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { BodyForm } from '../../nodes/IntegrationService/helpers/body';
import { readBody } from '../../nodes/IntegrationService/helpers/body';
import { formProperties } from '../../nodes/IntegrationService/helpers/form';
import { FIELDS } from '../../nodes/IntegrationService/helpers/kinds';
import { toWholeNumber } from '../../nodes/IntegrationService/helpers/kinds/number';
import { requireId } from '../../nodes/IntegrationService/helpers/kinds/text';
import type { FieldSpec, FieldType } from '../../nodes/shared/catalogue';
import { SYNC_KINDS as ENTITY_KINDS } from '../../nodes/shared/catalogue';
import { fakeExecuteContext, thrownBy } from './fakes';

const PROPERTY = { seed: 19, numRuns: 200 };

const spec = (
	name: string,
	label: string,
	type: FieldType,
	extra: Partial<FieldSpec> = {},
): FieldSpec => ({ name, label, type, description: `${label} of the record`, ...extra });

const firstName = spec('firstName', 'First Name', 'string');
const lastName = spec('lastName', 'Last Name', 'string', { required: true });
const rating = spec('rating', 'Rating', 'number', { min: 0 });
const beds = spec('beds', 'Beds', 'number', { min: 1 });
const price = spec('price', 'Price', 'number');
const active = spec('active', 'Active', 'boolean');
const customFields = spec('customFields', 'Custom Fields', 'json');
const settings = spec('settings', 'Settings', 'json', { required: true });
const documents = spec('documents', 'Documents', 'jsonArray');
const tags = spec('tags', 'Tags', 'stringList');
const emails = spec('emails', 'Emails', 'emails');
const phones = spec('phones', 'Phones', 'phones');
const addresses = spec('addresses', 'Addresses', 'addresses');
const consent = spec('communicationsConsent', 'Communications Consent', 'consent');
const entities = spec('entitiesToSync', 'Entities to Sync', 'entitiesToSync');

/** A group of the form (Additional Fields, Update Fields) among its fields. */
type Group = { group: NonNullable<BodyForm['group']> };
const fieldGroup = (
	kind: 'additional' | 'update',
	fields: FieldSpec[],
	description?: string,
): Group => ({ group: { kind, fields, description } });

/** The form of these fields and at most one group. */
function formOf(layout: Array<FieldSpec | Group>, mappingModes = false): BodyForm {
	const group = layout.find((entry): entry is Group => 'group' in entry);
	const fields = layout.filter((entry): entry is FieldSpec => !('group' in entry));
	return { fields, ...(group ? { group: group.group } : {}), mappingModes };
}

/** The body the form gives for these fields and parameters. */
function fromForm(layout: Array<FieldSpec | Group>, parameters: IDataObject): IDataObject {
	return readBody(fakeExecuteContext(parameters), 0, formOf(layout));
}

/** The input error the form gives (its message). */
function formError(layout: Array<FieldSpec | Group>, parameters: IDataObject): string {
	const error = thrownBy(() => fromForm(layout, parameters));
	expect(error).toBeInstanceOf(NodeOperationError);
	return error.message;
}

describe('readBody from the form', () => {
	it('sends what is set and leaves blank and null out', () => {
		const properties = [firstName, rating, active, customFields, tags, emails, addresses, consent];
		expect(
			fromForm(properties, {
				firstName: '',
				rating: null,
				active: null,
				customFields: '',
				tags: [],
				emails: {},
				addresses: { values: [] },
				communicationsConsent: {},
			}),
		).toEqual({});
		expect(
			fromForm(properties, {
				firstName: 'Ann',
				rating: 0,
				active: false,
				customFields: '',
				communicationsConsent: {},
			}),
		).toEqual({
			firstName: 'Ann',
			rating: 0,
			active: false,
		});
	});

	it('sends text as given, and a number or boolean as its text', () => {
		expect(fromForm([firstName, lastName], { firstName: ' Ann ', lastName: 12345 })).toEqual({
			firstName: ' Ann ',
			lastName: '12345',
		});
		expect(fromForm([firstName, lastName], { firstName: true, lastName: 'Lee' })).toEqual({
			firstName: 'true',
			lastName: 'Lee',
		});
	});

	it('refuses a required field left blank', () => {
		expect(formError([lastName], { lastName: '   ' })).toBe('Last Name: is required but empty');
		expect(formError([lastName], {})).toBe('Last Name: is required but empty');
		expect(formError([lastName], { lastName: null })).toBe('Last Name: is required but empty');
	});

	it('names the field when text is expected and something else comes', () => {
		expect(formError([firstName], { firstName: { a: 1 } })).toBe(
			'First Name: must be text, not an object or a list',
		);
		expect(formError([firstName], { firstName: ['a', 'b'] })).toBe(
			'First Name: must be text, not an object or a list',
		);
		expect(formError([lastName], { lastName: { a: 1 } })).toBe(
			'Last Name: must be text, not an object or a list',
		);
		expect(formError([firstName], { firstName: NaN })).toBe('First Name: must be text, got NaN');
		expect(formError([firstName], { firstName: Infinity })).toBe(
			'First Name: must be text, got Infinity',
		);
	});

	it('takes numbers as numbers or as numeric text, and refuses NaN and words', () => {
		expect(fromForm([rating, price], { rating: '12.5', price: ' -3 ' })).toEqual({
			rating: 12.5,
			price: -3,
		});
		expect(formError([rating], { rating: NaN })).toBe('Rating: must be a number, got null');
		expect(formError([rating], { rating: 'twelve' })).toBe(
			'Rating: must be a number, got "twelve"',
		);
		expect(formError([rating], { rating: true })).toBe('Rating: must be a number, got true');
		// Blanks say nothing, as "" does: not sent (issue 32: a model's text-typed $fromAI that knows no number).
		expect(fromForm([rating], { rating: '   ' })).toEqual({});
	});

	it('sends text as a number only when it is that number exactly (issue 39): never rounded', () => {
		const exact: Array<[string, number]> = [
			['42', 42],
			['3.5', 3.5],
			['1e3', 1000],
			['-0', -0],
			['0.1', 0.1],
			['+0012.50', 12.5],
			['0.30000000000000004', 0.30000000000000004],
			['5e-324', 5e-324],
			['9007199254740991', 9007199254740991],
		];
		for (const [text, number] of exact)
			expect(fromForm([price], { price: text })).toEqual({ price: number });
		const DIGITS =
			'Price: has more digits than a number holds exactly (15 significant digits always fit); it is not sent rounded';
		const BEYOND =
			'Price: is beyond ±9007199254740991, where a number loses digits; it is not sent rounded';
		for (const text of ['0.3000000000000000444', '4.9e-324', '1e-400', '1.00000000000000001'])
			expect(formError([price], { price: text })).toBe(DIGITS);
		for (const value of ['9007199254740992', '-12345678901234567890', '1e21', 2 ** 53, -1e300])
			expect(formError([price], { price: value })).toBe(BEYOND);
	});

	it('applies the minimum value', () => {
		expect(formError([rating], { rating: -1 })).toBe('Rating: must not be negative');
		expect(formError([beds], { beds: 0 })).toBe('Beds: must be at least 1');
		expect(fromForm([beds], { beds: '1' })).toEqual({ beds: 1 });
	});

	it('takes booleans as booleans or as "true"/"false"', () => {
		expect(fromForm([active], { active: 'false' })).toEqual({ active: false });
		expect(fromForm([active], { active: 'true' })).toEqual({ active: true });
		expect(formError([active], { active: 'yes' })).toBe('Active: must be true or false, got "yes"');
		expect(formError([active], { active: 1 })).toBe('Active: must be true or false, got 1');
	});

	it('reads JSON objects and JSON lists of objects (a default of [] makes a list)', () => {
		expect(
			fromForm([customFields, documents], {
				customFields: '{"a": 1}',
				documents: '[{"name": "w2.pdf"}]',
			}),
		).toEqual({
			customFields: { a: 1 },
			documents: [{ name: 'w2.pdf' }],
		});
		expect(
			fromForm([customFields, documents], { customFields: { b: 2 }, documents: [{ c: 3 }] }),
		).toEqual({
			customFields: { b: 2 },
			documents: [{ c: 3 }],
		});
		expect(formError([customFields], { customFields: '[1]' })).toBe(
			'Custom Fields: must be a JSON object like {"key": "value"}, got a list',
		);
		expect(formError([documents], { documents: '{"a": 1}' })).toBe(
			'Documents: must be a JSON list of objects like [{"key": "value"}], got an object',
		);
		expect(formError([documents], { documents: '[{"a": 1}, 2]' })).toBe(
			'Documents: must be a JSON list of objects like [{"key": "value"}], got a list',
		);
		expect(formError([documents], { documents: '[' })).toBe('Documents: is not valid JSON');
		expect(formError([settings], { settings: '  ' })).toBe(
			'Settings: is required but empty; give a JSON object such as {"key": "value"}',
		);
	});

	it('reads a multi-value text field from a list or comma text, dropping blank entries', () => {
		// An entry as given (blanks kept); comma text is a written list, each piece without its blanks.
		expect(fromForm([tags], { tags: ['a', ' b ', ''] })).toEqual({ tags: ['a', ' b '] });
		expect(fromForm([tags], { tags: 'a, b,,c' })).toEqual({ tags: ['a', 'b', 'c'] });
		expect(fromForm([tags], { tags: [7, true] })).toEqual({ tags: ['7', 'true'] });
		expect(fromForm([tags], { tags: ['', '  '] })).toEqual({});
	});

	it('refuses a null entry in a list rather than sending "null"', () => {
		expect(formError([tags], { tags: ['a', null] })).toBe('Tags › entry 2: must be text, not null');
		expect(formError([tags], { tags: [{ a: 1 }] })).toBe(
			'Tags › entry 1: must be text, not an object or a list',
		);
		expect(formError([tags], { tags: { a: 1 } })).toBe(
			'Tags: must be a list of text values, got an object',
		);
	});
});

describe('readBody: compound fields', () => {
	it('reads contact values from the fixed collection or from a list, blank parts left out', () => {
		expect(
			fromForm([emails, phones], {
				emails: {
					values: [{ value: ' ann@example.test ', type: 'work', status: '', isPrimary: true }],
				},
				phones: [{ value: 5550100, type: '', isPrimary: 'false' }],
			}),
		).toEqual({
			emails: [{ value: 'ann@example.test', type: 'work', isPrimary: true }],
			phones: [{ value: '5550100', isPrimary: false }],
		});
	});

	it('names the entry that is wrong', () => {
		expect(formError([emails], { emails: { values: [{ type: 'work' }] } })).toBe(
			'Emails › entry 1: has no value',
		);
		expect(
			formError([emails], { emails: { values: [{ value: 'a@x.test' }, { value: '  ' }] } }),
		).toBe('Emails › entry 2: has no value');
		expect(formError([emails], { emails: [null] })).toBe(
			'Emails: entry 1 must be an object with a value',
		);
		expect(formError([phones], { phones: 'not a list' })).toBe('Phones: must be a list of entries');
		expect(formError([phones], { phones: [{ value: { n: 1 } }] })).toBe(
			'Phones › entry 1 › Value: must be text, not an object or a list',
		);
		expect(formError([emails], { emails: [{ value: 'a@x.test', isPrimary: 'yes' }] })).toBe(
			'Emails › entry 1 › Is Primary: must be true or false, got a string',
		);
	});

	it('requires an entry where the service requires the field', () => {
		const required = { ...emails, required: true };
		expect(formError([required], { emails: {} })).toBe(
			'Emails: add at least one email (the service requires this field)',
		);
		expect(formError([{ ...addresses, required: true }], {})).toBe(
			'Addresses: add at least one address (the service requires this field)',
		);
	});

	it('reads addresses, parts as text', () => {
		expect(
			fromForm([addresses], {
				addresses: { values: [{ street: '1 Main St', code: 94105, country: '' }] },
			}),
		).toEqual({
			addresses: [{ street: '1 Main St', code: '94105' }],
		});
		expect(formError([addresses], { addresses: { values: [{}] } })).toBe(
			'Addresses: entry 1 is empty',
		);
		expect(formError([addresses], { addresses: [{ city: ['x'] }] })).toBe(
			'Addresses › entry 1 › City: must be text, not an object or a list',
		);
	});

	it('reads flags from the form, an object or JSON text, a null flag not set', () => {
		expect(
			fromForm([consent], { communicationsConsent: { email: true, call: 'false', text: null } }),
		).toEqual({
			communicationsConsent: { email: true, call: false },
		});
		expect(fromForm([consent], { communicationsConsent: '{"postal": true}' })).toEqual({
			communicationsConsent: { postal: true },
		});
		expect(
			fromForm([entities], { entitiesToSync: { loans: true, peopleRelationships: false } }),
		).toEqual({
			entitiesToSync: { loans: true, peopleRelationships: false },
		});
	});

	it('refuses an unknown flag and anything that is not an object of flags', () => {
		expect(formError([consent], { communicationsConsent: { fax: true } })).toBe(
			'Communications Consent: "fax" is not one of: email, call, text, massEmail, postal, visit',
		);
		expect(formError([entities], { entitiesToSync: { bogus: true } })).toBe(
			`Entities to Sync: "bogus" is not one of: ${ENTITY_KINDS.join(', ')}`,
		);
		expect(formError([consent], { communicationsConsent: 'nope' })).toBe(
			'Communications Consent: must be an object of true/false flags',
		);
		expect(formError([consent], { communicationsConsent: [true] })).toBe(
			'Communications Consent: must be an object of true/false flags',
		);
		expect(formError([consent], { communicationsConsent: { massEmail: 'maybe' } })).toBe(
			'Communications Consent › Mass Email: must be true or false, got "maybe"',
		);
	});

	it('the flag forms offer exactly the keys the kinds accept', () => {
		const keysOf = (field: FieldSpec) =>
			(FIELDS.property(field).options ?? []).map((option) => option.name).sort();
		expect(keysOf(entities)).toEqual([...ENTITY_KINDS].sort());
		expect(keysOf(consent)).toEqual(['call', 'email', 'massEmail', 'postal', 'text', 'visit']);
	});
});

describe('fieldGroup and Update Fields', () => {
	const additional = fieldGroup('additional', [rating, tags], 'More about the person');
	const update = fieldGroup('update', [firstName, rating, consent]);

	it('builds the collections', () => {
		const names = (group: Group) =>
			((formProperties(formOf([group]))[0].options ?? []) as Array<{ name: string }>).map(
				(option) => option.name,
			);
		expect(formProperties(formOf([additional]))[0]).toMatchObject({
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			default: {},
			description: 'More about the person',
		});
		expect(names(additional)).toEqual(['rating', 'tags']);
		expect(formProperties(formOf([update]))[0]).toMatchObject({
			displayName: 'Update Fields',
			name: 'updateFields',
			type: 'collection',
			default: {},
		});
		expect(names(update)).toEqual(['firstName', 'rating', 'communicationsConsent']);
	});

	it('reads the fields added to a group, labelled Group › Field', () => {
		expect(
			fromForm([lastName, additional], {
				lastName: 'Lee',
				additionalFields: { rating: '4', tags: 'a,b' },
			}),
		).toEqual({
			lastName: 'Lee',
			rating: 4,
			tags: ['a', 'b'],
		});
		expect(
			formError([lastName, additional], { lastName: 'Lee', additionalFields: { rating: -2 } }),
		).toBe('Additional Fields › Rating: must not be negative');
		expect(fromForm([lastName, additional], { lastName: 'Lee' })).toEqual({ lastName: 'Lee' });
	});

	it('refuses an update that changes nothing', () => {
		expect(formError([update], { updateFields: {} })).toBe('Update Fields: add at least one field');
		expect(formError([update], {})).toBe('Update Fields: add at least one field');
		expect(
			formError([update], {
				updateFields: { firstName: '', rating: null, communicationsConsent: {} },
			}),
		).toBe('Update Fields: add at least one field');
		expect(fromForm([update], { updateFields: { firstName: 'Ann' } })).toEqual({
			firstName: 'Ann',
		});
		expect(
			fromForm([update], { updateFields: { communicationsConsent: { visit: false } } }),
		).toEqual({
			communicationsConsent: { visit: false },
		});
	});

	it('an empty Additional Fields is fine', () => {
		expect(fromForm([additional], { additionalFields: {} })).toEqual({});
	});
});

describe('Map Automatically', () => {
	const properties = [
		firstName,
		fieldGroup('additional', [rating, tags, emails, consent, customFields]),
	];
	const WIRE = ['firstName', 'rating', 'tags', 'emails', 'communicationsConsent', 'customFields'];

	function fromInput(input: IDataObject, props = properties): IDataObject {
		return readBody(
			fakeExecuteContext({ mappingMode: 'autoMapInputData' }, input),
			0,
			formOf(props, true),
		);
	}

	it('mappingModeProperties: the selector, and a notice naming the wire fields', () => {
		const [mode, notice] = formProperties(formOf(properties, true));
		expect(mode).toMatchObject({ name: 'mappingMode', type: 'options', default: 'defineBelow' });
		expect(mode.options?.map((option) => ('value' in option ? option.value : undefined))).toEqual([
			'autoMapInputData',
			'defineBelow',
			'jsonRecord',
		]);
		expect(notice).toMatchObject({
			name: 'mappingModeNotice',
			type: 'notice',
			displayOptions: { show: { mappingMode: ['autoMapInputData'] } },
		});
		expect(notice.displayName).toBe(
			`Input fields named as the service names them are sent, checked as the form would check them: ${WIRE.join(', ')}. Other input fields are ignored.`,
		);
	});

	it('takes only the declared wire fields from the input item', () => {
		expect(
			fromInput({
				firstName: 'Ann',
				rating: '3',
				tags: ['x'],
				communicationsConsent: { email: true },
				additionalFields: { rating: 9 },
				mappingMode: 'defineBelow',
				unknown: 'ignored',
			}),
		).toEqual({ firstName: 'Ann', rating: 3, tags: ['x'], communicationsConsent: { email: true } });
	});

	it('checks input fields as the form would, naming the input field', () => {
		expect(thrownBy(() => fromInput({ rating: -1 })).message).toBe(
			'Input Field "rating": must not be negative',
		);
		expect(thrownBy(() => fromInput({ firstName: { a: 1 } })).message).toBe(
			'Input Field "firstName": must be text, not an object or a list',
		);
		expect(thrownBy(() => fromInput({ tags: ['a', null] })).message).toBe(
			'Input Field "tags" › entry 2: must be text, not null',
		);
		expect(thrownBy(() => fromInput({ communicationsConsent: { fax: true } })).message).toBe(
			'Input Field "communicationsConsent": "fax" is not one of: email, call, text, massEmail, postal, visit',
		);
	});

	it('errors when the input item has none of the fields', () => {
		for (const input of [
			{},
			{ unknown: 1, additionalFields: { rating: 2 } },
			{ firstName: '', rating: null },
		]) {
			const error = thrownBy(() => fromInput(input)) as NodeOperationError;
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe(
				`Map Automatically: the input item has none of the fields this operation sends (${WIRE.join(', ')})`,
			);
			expect(error.description).toBe(
				'Name the input fields as the service does, or choose Map Each Field Below (as an AI tool: Map From a JSON Record)',
			);
		}
	});

	it('is used only where the operation offers mapping modes', () => {
		const ctx = fakeExecuteContext(
			{ mappingMode: 'autoMapInputData', firstName: 'From Form' },
			{ firstName: 'From Input' },
		);
		expect(readBody(ctx, 0, formOf([firstName]))).toEqual({ firstName: 'From Form' });
		expect(readBody(ctx, 0, formOf([firstName], true))).toEqual({
			firstName: 'From Input',
		});
	});

	it('property: never puts a key into the body that is not a declared wire field', () => {
		// Mostly the names Map Automatically reads, so that enough bodies are made to check.
		const key = fc.oneof(
			{
				arbitrary: fc.constantFrom(
					...WIRE,
					'additionalFields',
					'mappingMode',
					'__proto__',
					'constructor',
					'toString',
				),
				weight: 3,
			},
			{ arbitrary: fc.string(), weight: 1 },
		);
		const value = fc.oneof(
			fc.jsonValue({ maxDepth: 2 }),
			fc.constantFrom('Ann', '3', 'a,b', 'true', '{"email": true}', '{"x": 1}'),
			fc.constant([{ value: 'a@x.test' }]),
			// Numbers a field takes: jsonValue's doubles are often beyond ±(2^53 − 1), refused since issue 39.
			fc.integer({ min: -1000, max: 1000 }),
			// Text a text field takes: jsonValue's numbers in a text field are refused too when past 2^53.
			fc.string({ maxLength: 8 }),
		);
		let accepted = 0;
		let refused = 0;
		fc.assert(
			fc.property(fc.dictionary(key, value, { maxKeys: 8 }), (input) => {
				let body: IDataObject;
				try {
					body = fromInput(input);
				} catch (error) {
					// Refused as input, never a defect (a TypeError or the like).
					expect(error).toBeInstanceOf(NodeOperationError);
					refused++;
					return;
				}
				accepted++;
				expect(Object.keys(body).length).toBeGreaterThan(0);
				for (const name of Object.keys(body)) expect(WIRE).toContain(name);
			}),
			PROPERTY,
		);
		// Not vacuous: both branches were taken.
		expect(accepted).toBeGreaterThan(20);
		expect(refused).toBeGreaterThan(20);
	});
});

describe('validation helpers', () => {
	const ctx = fakeExecuteContext({});

	it('requireId trims and refuses control characters', () => {
		expect(requireId(ctx, 0, 'Person ID', '  p-1 ')).toBe('p-1');
		expect(requireId(ctx, 0, 'Person ID', 42)).toBe('42');
		expect(thrownBy(() => requireId(ctx, 0, 'Person ID', 'p-1\r\nX: y')).message).toBe(
			'Person ID: contains a line break or another control character',
		);
		expect(thrownBy(() => requireId(ctx, 0, 'Person ID', '')).message).toBe(
			'Person ID: is required but empty',
		);
	});

	it('toWholeNumber checks wholeness and bounds', () => {
		expect(toWholeNumber(ctx, 0, 'Limit', '50', 1, 100)).toBe(50);
		expect(thrownBy(() => toWholeNumber(ctx, 0, 'Limit', 2.5, 1)).message).toBe(
			'Limit: must be a whole number, got 2.5',
		);
		expect(thrownBy(() => toWholeNumber(ctx, 0, 'Limit', 0, 1, 100)).message).toBe(
			'Limit: must be between 1 and 100, got 0',
		);
		expect(thrownBy(() => toWholeNumber(ctx, 0, 'Limit', -1, 0)).message).toBe(
			'Limit: must be at least 0, got -1',
		);
	});
});
