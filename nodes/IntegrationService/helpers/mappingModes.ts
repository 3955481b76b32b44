import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { jsonObjectOf } from '../../shared/service';
import { bodyFields, writesNothing } from './fieldGroups';
import { setIfDefined, wireValue } from './fieldValue';
import { recordShape } from './recordShape';
import { inputError, refuseUnknownKeys } from './validation';

/**
 * The body's values come from the form (Map Each Field Below), from the input item (Map Automatically)
 * or from one JSON object (Record (JSON): what an AI model gives through one `$fromAI`).
 */
export const MAPPING_MODE = {
	fromForm: 'defineBelow',
	fromInput: 'autoMapInputData',
	fromRecord: 'jsonRecord',
} as const;

const RECORD = { name: 'record', label: 'Record (JSON)' } as const;

/**
 * A record bigger than this as JSON text is refused: one record of the service is a few thousand
 * characters, so this is a runaway model or a pasted export, not a record to write.
 */
export const MAX_RECORD_CHARS = 100_000;

const own = (object: IDataObject, key: string) =>
	Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;

/** Each wire field found in `source`, checked as the form checks it and labelled by `labelOf`. */
function bodyOf(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: INodeProperties[],
	source: IDataObject,
	labelOf: (name: string) => string,
): IDataObject {
	const body: IDataObject = {};
	for (const field of fields) {
		const value = wireValue(ctx, itemIndex, field, labelOf(field.name), own(source, field.name));
		setIfDefined(body, field.name, value);
	}
	return body;
}

const namesOf = (fields: INodeProperties[]) => fields.map((field) => field.name).join(', ');

/** The body from the input item: each of its fields named as a wire field, checked as the form's would be. */
export function bodyFromInput(
	ctx: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
): IDataObject {
	const input = ctx.getInputData()[itemIndex]?.json ?? {};
	const fields = bodyFields(properties);
	const body = bodyOf(ctx, itemIndex, fields, input, (name) => `Input Field "${name}"`);
	if (writesNothing(body)) {
		throw inputError(
			ctx,
			itemIndex,
			'Map Automatically',
			`the input item has none of the fields this operation sends (${namesOf(fields)})`,
			'Name the input fields as the service does, or choose Map Each Field Below (as an AI tool: Map From a JSON Record)',
		);
	}
	return body;
}

/**
 * The body from Record (JSON): one object (or its JSON text) whose keys are wire fields, each checked
 * as the form checks it. Unlike an input row it carries nothing else, so a key that is no field (a
 * misspelt or made-up one, `__proto__`) is refused by name rather than dropped.
 */
export function bodyFromRecord(
	ctx: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
): IDataObject {
	const fields = bodyFields(properties);
	const raw = ctx.getNodeParameter(RECORD.name, itemIndex, undefined);
	if (raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '')) {
		throw inputError(
			ctx,
			itemIndex,
			RECORD.label,
			`is required but empty; give a JSON object with some of: ${namesOf(fields)}`,
		);
	}
	const size = (typeof raw === 'string' ? raw : JSON.stringify(raw)).length;
	if (size > MAX_RECORD_CHARS) {
		throw inputError(
			ctx,
			itemIndex,
			RECORD.label,
			`is ${size} characters as JSON; at most ${MAX_RECORD_CHARS} are accepted`,
		);
	}
	const parsed = jsonObjectOf(raw);
	if ('problem' in parsed) throw inputError(ctx, itemIndex, RECORD.label, parsed.problem);
	const record = parsed.object as IDataObject;
	refuseUnknownKeys(
		ctx,
		itemIndex,
		RECORD.label,
		record,
		fields.map((field) => field.name),
	);
	const body = bodyOf(ctx, itemIndex, fields, record, (name) => `${RECORD.label} › ${name}`);
	if (writesNothing(body)) {
		throw inputError(
			ctx,
			itemIndex,
			RECORD.label,
			`has none of the fields this operation sends (${namesOf(fields)})`,
		);
	}
	return body;
}

/**
 * Record (JSON)'s default: one `$fromAI` whose description lists every field and its kind, so a model
 * using the node as a tool knows the keys (n8n shows it nothing else of the node for this argument).
 * Backticks hold it, as n8n's own button writes them; no field name holds a backtick or `${`.
 */
function recordFromAI(fields: INodeProperties[]): string {
	const description = `The record as one JSON object. Give only the fields you know; leave out the others. Fields: ${recordShape(fields)}`;
	return `={{ $fromAI('${RECORD.name}', \`${description}\`, 'json') }}`;
}

/** The Mapping Mode selector and what each mode shows, for operations whose body need not be the form. */
export function mappingModeProperties(bodyProperties: INodeProperties[]): INodeProperties[] {
	const fields = bodyFields(bodyProperties);
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
				{
					name: 'Map From a JSON Record',
					value: MAPPING_MODE.fromRecord,
					description:
						"Send one JSON object whose keys are the service's fields, such as an AI model gives as a tool; other keys are refused",
				},
			],
			default: 'defineBelow',
		},
		{
			displayName: `Input fields named as the service names them are sent, checked as the form would check them: ${namesOf(fields)}. Other input fields are ignored.`,
			name: 'mappingModeNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { mappingMode: [MAPPING_MODE.fromInput] } },
		},
		{
			displayName: RECORD.label,
			name: RECORD.name,
			type: 'json',
			required: true,
			default: recordFromAI(fields),
			description:
				'The record as one JSON object whose keys are the fields of Map Each Field Below, named as the service names them and each checked as the form checks it; a key that is none of them is refused, and empty values are not sent. The default lets an AI model fill it when the node is a tool; in a workflow, map an object from an earlier node instead.',
			displayOptions: { show: { mappingMode: [MAPPING_MODE.fromRecord] } },
		},
	];
}

/** The form's fields, shown only while the body is mapped from the form. */
export function shownWhenMappedFromForm(bodyProperties: INodeProperties[]): INodeProperties[] {
	return updateDisplayOptions({ show: { mappingMode: [MAPPING_MODE.fromForm] } }, bodyProperties);
}
