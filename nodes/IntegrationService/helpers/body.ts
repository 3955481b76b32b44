import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { FieldSpec } from '../../shared/catalogue';
import { jsonObjectOf, jsonOf } from '../../shared/service';
import { FIELDS, KINDS } from './kinds';
import { isUnsetValue } from './kinds/kind';
import { locatorValue } from './kinds/locator';
import { entriesOf, inputError, refuseUnknownKeys } from './validation';

/** The request body of one item, from the form, the input item or one JSON record; checked before sending. */

export const MAPPING_MODE = {
	fromForm: 'defineBelow',
	fromInput: 'autoMapInputData',
	fromRecord: 'jsonRecord',
} as const;

export const RECORD = { name: 'record', label: 'Record (JSON)' } as const;

/** A record is a few thousand characters: more is a runaway model or a pasted export. */
const MAX_RECORD_CHARS = 100_000;

export const GROUPS = {
	additional: { name: 'additionalFields', label: 'Additional Fields' },
	update: { name: 'updateFields', label: 'Update Fields' },
} as const;

/** An operation's body form: fields shown on their own, then a group of fields added one by one. */
export interface BodyForm {
	fields: readonly FieldSpec[];
	group?: { kind: keyof typeof GROUPS; fields: readonly FieldSpec[]; description?: string };
	mappingModes?: boolean;
	/** A field that names another record is a locator (version 2). */
	locators?: boolean;
}

/** A list's "(JSON)" companion takes the whole list as one value (decisions.md, "A list of objects as one value"). */
export const companionOf = (spec: FieldSpec) => ({
	name: `${spec.name}Json`,
	label: `${spec.label} (JSON)`,
});

export const bodyFields = (form: BodyForm): FieldSpec[] => [
	...form.fields,
	...(form.group?.fields ?? []),
];

export const namesOf = (fields: readonly FieldSpec[]) => fields.map((spec) => spec.name).join(', ');

/** No field, or only empty objects and lists (a Bio left at its `{}`). */
const writesNothing = (body: IDataObject) =>
	Object.values(body).every(
		(value) => value !== null && typeof value === 'object' && Object.keys(value).length === 0,
	);

const isEmptyValue = (value: unknown) =>
	isUnsetValue(value) || (Array.isArray(value) && value.length === 0);

/** One field's value from the form; a list and its companion both set is an error, not a guess. */
function formValue(
	ctx: IExecuteFunctions,
	itemIndex: number,
	spec: FieldSpec,
	scope: string,
	given: (name: string) => unknown,
): unknown {
	const label = `${scope}${spec.label}`;
	const raw = spec.refersTo ? locatorValue(given(spec.name)) : given(spec.name);
	const kind = KINDS[spec.type];
	if (!kind.list) return kind.read({ ctx, itemIndex, label }, spec, raw, FIELDS);
	const companion = `${scope}${companionOf(spec).label}`;
	let whole = given(companionOf(spec).name);
	if (typeof whole === 'string' && whole.trim() !== '') {
		const read = jsonOf(whole);
		if ('problem' in read) throw inputError(ctx, itemIndex, companion, read.problem);
		whole = read.value;
	}
	if (isEmptyValue(whole)) return kind.read({ ctx, itemIndex, label }, spec, raw, FIELDS);
	if (!isEmptyValue(entriesOf(raw))) {
		const problem = `give either ${label} or ${companion}, not both`;
		throw inputError(ctx, itemIndex, companion, problem);
	}
	return kind.read({ ctx, itemIndex, label: companion }, spec, whole, FIELDS);
}

function setIfDefined(body: IDataObject, name: string, value: unknown): void {
	if (value !== undefined) body[name] = value as IDataObject[keyof IDataObject];
}

function bodyFromForm(ctx: IExecuteFunctions, itemIndex: number, form: BodyForm): IDataObject {
	const body: IDataObject = {};
	const parameter = (name: string): unknown => ctx.getNodeParameter(name, itemIndex, undefined);
	for (const spec of form.fields)
		setIfDefined(body, spec.name, formValue(ctx, itemIndex, spec, '', parameter));
	if (!form.group) return body;
	const group = GROUPS[form.group.kind];
	const added = (ctx.getNodeParameter(group.name, itemIndex, {}) ?? {}) as IDataObject;
	for (const spec of form.group.fields) {
		// A field not added (nor its companion) writes nothing and is not read, unless required.
		if (!spec.required && !(spec.name in added) && !(companionOf(spec).name in added)) continue;
		const value = formValue(ctx, itemIndex, spec, `${group.label} › `, (name) => added[name]);
		setIfDefined(body, spec.name, value);
	}
	return body;
}

const own = (object: IDataObject, key: string) =>
	Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;

/** Record (JSON) as an object of known fields: unlike an input row it carries nothing else, so an unknown key is refused. */
function recordOf(ctx: IExecuteFunctions, itemIndex: number, fields: FieldSpec[]): IDataObject {
	const raw = ctx.getNodeParameter(RECORD.name, itemIndex, undefined);
	if (isUnsetValue(raw)) {
		const problem = `is required but empty; give a JSON object with some of: ${namesOf(fields)}`;
		throw inputError(ctx, itemIndex, RECORD.label, problem);
	}
	const size = (typeof raw === 'string' ? raw : JSON.stringify(raw)).length;
	if (size > MAX_RECORD_CHARS) {
		const problem = `is ${size} characters as JSON; at most ${MAX_RECORD_CHARS} are accepted`;
		throw inputError(ctx, itemIndex, RECORD.label, problem);
	}
	const parsed = jsonObjectOf(raw);
	if ('problem' in parsed) throw inputError(ctx, itemIndex, RECORD.label, parsed.problem);
	const record = parsed.object as IDataObject;
	const names = fields.map((spec) => spec.name);
	refuseUnknownKeys({ ctx, itemIndex, label: RECORD.label }, record, names);
	return record;
}

/** The body from the input item's fields (Map Automatically; other keys ignored) or from Record (JSON). */
function bodyFromObject(ctx: IExecuteFunctions, itemIndex: number, form: BodyForm, input: boolean) {
	const fields = bodyFields(form);
	const source = input
		? (ctx.getInputData()[itemIndex]?.json ?? {})
		: recordOf(ctx, itemIndex, fields);
	const body: IDataObject = {};
	for (const spec of fields) {
		const label = input ? `Input Field "${spec.name}"` : `${RECORD.label} › ${spec.name}`;
		const value = FIELDS.read({ ctx, itemIndex, label }, spec, own(source, spec.name));
		setIfDefined(body, spec.name, value);
	}
	if (!writesNothing(body)) return body;
	const none = `none of the fields this operation sends (${namesOf(fields)})`;
	if (!input) throw inputError(ctx, itemIndex, RECORD.label, `has ${none}`);
	const hint =
		'Name the input fields as the service does, or choose Map Each Field Below (as an AI tool: Map From a JSON Record)';
	throw inputError(ctx, itemIndex, 'Map Automatically', `the input item has ${none}`, hint);
}

/** A Create or Update Fields with no field is refused: the record would be empty, or nothing change. */
export function readBody(
	ctx: IExecuteFunctions,
	itemIndex: number,
	form: BodyForm,
	create = false,
): IDataObject {
	const mode = form.mappingModes
		? ctx.getNodeParameter('mappingMode', itemIndex, MAPPING_MODE.fromForm)
		: MAPPING_MODE.fromForm;
	if (mode === MAPPING_MODE.fromInput || mode === MAPPING_MODE.fromRecord)
		return bodyFromObject(ctx, itemIndex, form, mode === MAPPING_MODE.fromInput);
	const body = bodyFromForm(ctx, itemIndex, form);
	const update = form.group?.kind === 'update';
	if (!(update || create) || !writesNothing(body)) return body;
	if (update) throw inputError(ctx, itemIndex, GROUPS.update.label, 'add at least one field');
	const label = form.group ? GROUPS[form.group.kind].label : 'Fields';
	throw inputError(ctx, itemIndex, label, 'set at least one field; an empty record is not created');
}
