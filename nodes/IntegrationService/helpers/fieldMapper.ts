import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { ENTITY_KINDS } from '../../shared/entityKinds';
import {
	inputError,
	optionalText,
	parseJsonParameter,
	refuseUnknownKeys,
	requireText,
	toBoolean,
	toEntries,
	toNumber,
	toStringList,
} from './validation';

/**
 * One way to turn an operation's body fields into the request body, driven by the operation's own
 * properties: the parameter name is the wire field, the display name labels errors, the type (and
 * `required`, `minValue`, `multipleValues`, a JSON default of `[]`) says how the value is checked. A field
 * inside a collection is labelled `Collection › Field`, the same in every operation.
 */

type CompoundReader = (
	ctx: IExecuteFunctions,
	itemIndex: number,
	label: string,
	raw: unknown,
) => IDataObject | IDataObject[];

// Compound fields: a fixed collection or a set of flags, each read by its own reader into its wire shape.

/** Contact value parts (spec 2.1). */
const CONTACT_PARTS = ['value', 'type', 'status', 'isPrimary'] as const;

/** Address parts (spec 2.1), each optional text. */
export const ADDRESS_PARTS = ['type', 'street', 'city', 'state', 'code', 'country'] as const;

/** The channels of Communications Consent (spec 2.1). */
export const COMMUNICATION_CHANNELS = [
	'email',
	'call',
	'text',
	'massEmail',
	'postal',
	'visit',
] as const;

/** A flag's label, from its wire key: `massEmail` → `Mass Email`. */
export function flagLabel(key: string): string {
	return key.replace(/([A-Z])/g, ' $1').replace(/^./, (first) => first.toUpperCase());
}

/** Contact values (spec 2.1) from the fixed collection or a list from an expression, blank parts left out. */
function toContactValues(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	raw: unknown,
): IDataObject[] {
	const entries = toEntries(ctx, itemIndex, field, raw, {
		list: 'entries',
		entry: 'must be an object with a value',
	});
	return entries.map((entry, position) => {
		const { value, type, status, isPrimary } = entry;
		const entryLabel = `${field} › entry ${position + 1}`;
		refuseUnknownKeys(ctx, itemIndex, entryLabel, entry, CONTACT_PARTS);
		if (
			value === undefined ||
			value === null ||
			(typeof value === 'string' && value.trim() === '')
		) {
			throw inputError(ctx, itemIndex, entryLabel, 'has no value');
		}
		const contact: IDataObject = {
			value: requireText(ctx, itemIndex, `${entryLabel} › Value`, value).trim(),
		};
		const typeText = optionalText(ctx, itemIndex, `${entryLabel} › Type`, type);
		if (typeText !== undefined) contact.type = typeText;
		const statusText = optionalText(ctx, itemIndex, `${entryLabel} › Status`, status);
		if (statusText !== undefined) contact.status = statusText;
		if (isPrimary !== undefined && isPrimary !== null && isPrimary !== '') {
			contact.isPrimary = toBoolean(ctx, itemIndex, `${entryLabel} › Is Primary`, isPrimary);
		}
		return contact;
	});
}

/** Addresses (spec 2.1): every part optional, an address with no part is an error. */
function toAddresses(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	raw: unknown,
): IDataObject[] {
	const entries = toEntries(ctx, itemIndex, field, raw, {
		list: 'addresses',
		entry: 'must be an object',
	});
	return entries.map((entry, position) => {
		refuseUnknownKeys(ctx, itemIndex, `${field} › entry ${position + 1}`, entry, ADDRESS_PARTS);
		const address: IDataObject = {};
		for (const part of ADDRESS_PARTS) {
			const value = optionalText(
				ctx,
				itemIndex,
				`${field} › entry ${position + 1} › ${part}`,
				entry[part],
			);
			if (value !== undefined) address[part] = value;
		}
		if (Object.keys(address).length === 0) {
			throw inputError(ctx, itemIndex, field, `entry ${position + 1} is empty`);
		}
		return address;
	});
}

/**
 * Flags given by the form (an object of booleans) or by an expression or input field (an object, or its
 * JSON text); an unknown key is an error rather than a silently dropped flag.
 */
function toFlags(keys: readonly string[]): CompoundReader {
	return (ctx, itemIndex, field, raw) => {
		let value = raw;
		if (typeof value === 'string') {
			try {
				value = JSON.parse(value);
			} catch {
				throw inputError(ctx, itemIndex, field, 'must be an object of true/false flags');
			}
		}
		if (value === undefined || value === null) return {};
		if (typeof value !== 'object' || Array.isArray(value)) {
			throw inputError(ctx, itemIndex, field, 'must be an object of true/false flags');
		}
		const flags: IDataObject = {};
		refuseUnknownKeys(ctx, itemIndex, field, value as IDataObject, keys);
		for (const [key, flag] of Object.entries(value as IDataObject)) {
			// A flag left null (a NULL column) is not set, like a field left out.
			if (flag === null || flag === undefined) continue;
			flags[key] = toBoolean(ctx, itemIndex, `${field} › ${flagLabel(key)}`, flag);
		}
		return flags;
	};
}

/** Every compound field, by its wire name: the one list of them (the description test reads it too). */
const COMPOUND_READERS: Record<string, CompoundReader> = {
	emails: toContactValues,
	phones: toContactValues,
	addresses: toAddresses,
	entitiesToSync: toFlags(ENTITY_KINDS),
	communicationsConsent: toFlags(COMMUNICATION_CHANNELS),
};

export const COMPOUND_FIELDS: readonly string[] = Object.keys(COMPOUND_READERS);

/** The body's values come from the form (Map Each Field Below) or from the input item (Map Automatically). */
const MAPPING_MODE = { fromForm: 'defineBelow', fromInput: 'autoMapInputData' } as const;

function isUnset(raw: unknown): boolean {
	return raw === undefined || raw === null || raw === '';
}

function isEmpty(value: IDataObject | IDataObject[]): boolean {
	return Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0;
}

/** The field group of an update: an update that changes nothing is refused. */
const UPDATE_FIELDS = 'updateFields';

/**
 * A group of fields the user adds one by one: Additional Fields of a create (each optional) or Update
 * Fields of an update (at least one, since an update that changes nothing is refused).
 */
export function fieldGroup(
	kind: 'additional' | 'update',
	options: INodeProperties[],
	description?: string,
): INodeProperties {
	const update = kind === 'update';
	return {
		displayName: update ? 'Update Fields' : 'Additional Fields',
		name: update ? UPDATE_FIELDS : 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description: update
			? 'The fields to change; add at least one. Fields you do not add are not sent and stay as they are.'
			: description,
		options,
	};
}

/** A collection of further fields (Additional Fields, Update Fields), as opposed to a compound field. */
function isFieldGroup(property: INodeProperties): boolean {
	return property.type === 'collection' && !(property.name in COMPOUND_READERS);
}

/** The wire value of one field, or undefined when it is not set and must not be sent. */
function wireValue(
	ctx: IExecuteFunctions,
	itemIndex: number,
	property: INodeProperties,
	label: string,
	raw: unknown,
): unknown {
	const compound = COMPOUND_READERS[property.name];
	if (compound) {
		const value = isUnset(raw) ? [] : compound(ctx, itemIndex, label, raw);
		if (!isEmpty(value)) return value;
		if (!property.required) return undefined;
		const what = String(property.placeholder ?? 'Add Entry')
			.replace(/^Add /, '')
			.toLowerCase();
		throw inputError(
			ctx,
			itemIndex,
			label,
			`add at least one ${what} (the service requires this field)`,
		);
	}
	if (
		property.required &&
		property.type === 'json' &&
		(isUnset(raw) || (typeof raw === 'string' && raw.trim() === ''))
	) {
		throw inputError(
			ctx,
			itemIndex,
			label,
			'is required but empty; give a JSON object such as {"key": "value"}',
		);
	}
	if (property.required && property.type === 'string' && !property.typeOptions?.multipleValues)
		return requireText(ctx, itemIndex, label, raw);
	if (isUnset(raw)) return undefined;
	switch (property.type) {
		case 'string': {
			if (!property.typeOptions?.multipleValues) return optionalText(ctx, itemIndex, label, raw);
			const list = toStringList(ctx, itemIndex, label, raw);
			return list.length ? list : undefined;
		}
		case 'number': {
			const number = toNumber(ctx, itemIndex, label, raw);
			const min = property.typeOptions?.minValue;
			if (min !== undefined && number < min) {
				throw inputError(
					ctx,
					itemIndex,
					label,
					min === 0 ? 'must not be negative' : `must be at least ${min}`,
				);
			}
			return number;
		}
		case 'boolean':
			return toBoolean(ctx, itemIndex, label, raw);
		case 'json':
			return String(property.default).trim().startsWith('[')
				? parseJsonParameter(ctx, itemIndex, label, raw, 'arrayOfObjects')
				: parseJsonParameter(ctx, itemIndex, label, raw, 'object');
		default:
			// A field type added to an operation without teaching the mapper: a defect, caught by the tests.
			throw new Error(`The field mapper cannot read "${property.name}" of type ${property.type}`);
	}
}

function setIfDefined(body: IDataObject, name: string, value: unknown): void {
	if (value !== undefined) body[name] = value as IDataObject[keyof IDataObject];
}

/** The body from the node's parameters: top-level fields and those added to a field group. */
function bodyFromForm(
	ctx: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
): IDataObject {
	const body: IDataObject = {};
	for (const property of properties) {
		const raw = ctx.getNodeParameter(property.name, itemIndex, property.default);
		if (!isFieldGroup(property)) {
			setIfDefined(
				body,
				property.name,
				wireValue(ctx, itemIndex, property, property.displayName, raw),
			);
			continue;
		}
		const added = (raw ?? {}) as IDataObject;
		for (const field of (property.options ?? []) as INodeProperties[]) {
			const label = `${property.displayName} › ${field.displayName}`;
			setIfDefined(body, field.name, wireValue(ctx, itemIndex, field, label, added[field.name]));
		}
	}
	return body;
}

/** Wire fields per operation: worked out once, not again for every input item. */
const fieldsOf = new WeakMap<INodeProperties[], INodeProperties[]>();

/** Every wire field the properties declare, field groups opened up. */
function bodyFields(properties: INodeProperties[]): INodeProperties[] {
	let fields = fieldsOf.get(properties);
	if (!fields) {
		fields = properties.flatMap((property) =>
			isFieldGroup(property) ? ((property.options ?? []) as INodeProperties[]) : [property],
		);
		fieldsOf.set(properties, fields);
	}
	return fields;
}

/** The body from the input item: each of its fields named as a wire field, checked as the form's would be. */
function bodyFromInput(
	ctx: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
): IDataObject {
	const input = ctx.getInputData()[itemIndex]?.json ?? {};
	const fields = bodyFields(properties);
	const body: IDataObject = {};
	for (const field of fields) {
		const raw = Object.prototype.hasOwnProperty.call(input, field.name)
			? input[field.name]
			: undefined;
		setIfDefined(
			body,
			field.name,
			wireValue(ctx, itemIndex, field, `Input Field "${field.name}"`, raw),
		);
	}
	if (Object.keys(body).length === 0) {
		throw inputError(
			ctx,
			itemIndex,
			'Map Automatically',
			`the input item has none of the fields this operation sends (${fields.map((field) => field.name).join(', ')})`,
			'Name the input fields as the service does, or choose Map Each Field Below',
		);
	}
	return body;
}

/** The Mapping Mode selector and its hint, for operations whose body can come from the input item. */
export function mappingModeProperties(bodyProperties: INodeProperties[]): INodeProperties[] {
	const names = bodyFields(bodyProperties).map((field) => field.name);
	return [
		{
			displayName: 'Mapping Mode',
			name: 'mappingMode',
			type: 'options',
			noDataExpression: true,
			options: [
				{
					name: 'Map Automatically',
					value: MAPPING_MODE.fromInput,
					description:
						"Send each input field whose name is one of the service's fields; other input fields are ignored",
				},
				{
					name: 'Map Each Field Below',
					value: MAPPING_MODE.fromForm,
					description: 'Set each field in the form below, by value or by expression',
				},
			],
			default: 'defineBelow',
		},
		{
			displayName: `Input fields named as the service names them are sent, checked as the form would check them: ${names.join(', ')}. Other input fields are ignored.`,
			name: 'mappingModeNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { mappingMode: [MAPPING_MODE.fromInput] } },
		},
	];
}

/** The form's fields, shown only while the body is mapped from the form. */
export function shownWhenMappedFromForm(bodyProperties: INodeProperties[]): INodeProperties[] {
	return updateDisplayOptions({ show: { mappingMode: [MAPPING_MODE.fromForm] } }, bodyProperties);
}

/**
 * The request body of one item. Every check runs here, before anything is sent. With `mappingModes`,
 * the item's Mapping Mode says whether the body comes from the form or from the input item.
 */
export function readBody(
	ctx: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
	options: { mappingModes?: boolean } = {},
): IDataObject {
	const mode = options.mappingModes
		? ctx.getNodeParameter('mappingMode', itemIndex, MAPPING_MODE.fromForm)
		: MAPPING_MODE.fromForm;
	if (mode === MAPPING_MODE.fromInput) return bodyFromInput(ctx, itemIndex, properties);
	const body = bodyFromForm(ctx, itemIndex, properties);
	const updateGroup = properties.find((property) => property.name === UPDATE_FIELDS);
	if (updateGroup && Object.keys(body).length === 0) {
		throw inputError(ctx, itemIndex, updateGroup.displayName, 'add at least one field');
	}
	return body;
}
