import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { SimpleKey } from '../../shared/catalogue';
import { isJsonObject } from '../../shared/service';
import { inputError } from '../helpers/validation';
import { MAX_CURSOR_LENGTH } from '../transport';
import { picked, readSetting, runsAsTool } from './request';
import { FORM_VERSION } from './settings';

/** What a record operation outputs: the fields asked for, the compact or full form, a model's bound. */

/** The most records one list call returns to a model; the rest is reached with the cursor. */
export const TOOL_PAGE_LIMIT = 20;
/** About 10,000 tokens. */
export const TOOL_MAX_CHARS = 40_000;
/** Fields to Return takes field names, not a document. */
const MAX_FIELDS = 50;
const MAX_NAME = 100;

export interface OutputChoice {
	/** Undefined keeps every field. */
	fields?: string[];
	/** Leave the bulky `original` (the record as held in the external system) out. */
	compact: boolean;
	/** Version 2's compact form: only these keys. */
	simple?: readonly SimpleKey[];
	asTool: boolean;
}

function readFields(
	ctx: IExecuteFunctions,
	itemIndex: number,
	raw: unknown,
	group: string,
): string[] | undefined {
	const label = `${group} › Fields to Return`;
	if (raw === undefined || raw === null || raw === '') return undefined;
	const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : undefined;
	if (!list || list.some((name) => typeof name !== 'string'))
		throw inputError(ctx, itemIndex, label, 'must be field names separated by commas');
	const names = [...new Set((list as string[]).map((name) => name.trim()).filter(Boolean))];
	if (names.length === 0) return undefined;
	const problem = `takes at most ${MAX_FIELDS} names of at most ${MAX_NAME} characters`;
	if (names.length > MAX_FIELDS || names.some((name) => name.length > MAX_NAME))
		throw inputError(ctx, itemIndex, label, problem);
	return names;
}

/** Form "auto" is full in a workflow and compact for a model; Get Many's Simplify decides it there. */
export function readOutput(
	ctx: IExecuteFunctions,
	itemIndex: number,
	simplify?: boolean,
	simple?: readonly SimpleKey[],
): OutputChoice {
	const asTool = runsAsTool(ctx);
	const { value: given, label } = readSetting(ctx, 'output', itemIndex);
	const output = (given && typeof given === 'object' ? given : {}) as IDataObject;
	const form = output.form ?? 'auto';
	if (form !== 'auto' && form !== 'compact' && form !== 'full')
		throw inputError(ctx, itemIndex, `${label} › Form`, 'must be auto, compact or full');
	const compact = simplify ?? (form === 'compact' || (form === 'auto' && asTool));
	const fields = readFields(ctx, itemIndex, output.fields, label);
	const simpleForm = compact && ctx.getNode().typeVersion >= FORM_VERSION ? simple : undefined;
	return { fields, compact, simple: simpleForm, asTool };
}

const own = (record: Record<string, unknown>, key: string): unknown =>
	Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;

function primaryValue(list: unknown): unknown {
	if (!Array.isArray(list)) return undefined;
	const entries = list.filter(isJsonObject);
	const chosen = entries.find((entry) => entry.isPrimary === true || entry.isPrimary === 1);
	return own(chosen ?? entries[0] ?? {}, 'value');
}

/** A record's simple form: the keys named that it has, in their order, a contact list as one value. */
export function simpleRecord(record: IDataObject, keys: readonly SimpleKey[]): IDataObject {
	const result: IDataObject = {};
	for (const key of keys) {
		const [name, value] =
			typeof key === 'string'
				? [key, own(record, key)]
				: [key.name, primaryValue(own(record, key.primaryOf))];
		if (value !== undefined)
			Object.defineProperty(result, name, { value, enumerable: true, writable: true });
	}
	return result;
}

/** One record with only the named fields, else its simple form, else without `original`. */
export function shapeRecord(record: IDataObject, choice: OutputChoice): IDataObject {
	if (!choice.fields && !choice.compact) return record;
	if (!choice.fields && choice.simple) return simpleRecord(record, choice.simple);
	const { fields } = choice;
	return picked(record, (key) => (fields ? fields.includes(key) : key !== 'original'));
}

/** The longest text and list, and the deepest nesting, kept at each step. */
const SHORTENING = [
	{ text: 2000, list: 100, depth: 20 },
	{ text: 300, list: 20, depth: 10 },
	{ text: 60, list: 5, depth: 5 },
];
type Step = (typeof SHORTENING)[number];

const MAX_MORE = 500;

/** A page's own key a model needs whole (the cursor continues the list). */
function keptWhole(key: string, value: unknown): boolean {
	if (key === 'nextCursor') return typeof value === 'string' && value.length <= MAX_CURSOR_LENGTH;
	if (key === 'more') return typeof value === 'string' && value.length <= MAX_MORE;
	if (key === 'done') return typeof value === 'boolean';
	return key === 'count' && typeof value === 'number';
}

function shortened(value: unknown, step: Step, depth: number): unknown {
	if (typeof value === 'string') {
		if (value.length <= step.text) return value;
		return `${value.slice(0, step.text)}… (${value.length - step.text} more characters)`;
	}
	if (value === null || typeof value !== 'object') return value;
	if (depth >= step.depth) return '… (nested deeper)';
	if (Array.isArray(value)) {
		const kept = value.slice(0, step.list).map((entry) => shortened(entry, step, depth + 1));
		if (value.length > step.list) kept.push(`… (${value.length - step.list} more entries)`);
		return kept;
	}
	const result: IDataObject = {};
	for (const [key, entry] of Object.entries(value as IDataObject)) {
		const kept = depth === 0 && keptWhole(key, entry) ? entry : shortened(entry, step, depth + 1);
		Object.defineProperty(result, key, { value: kept, enumerable: true, writable: true });
	}
	return result;
}

/** A tool's answer within TOOL_MAX_CHARS: as it is, else shortened, else what to ask for instead. */
export function boundForModel(items: IDataObject[]): IDataObject[] {
	if (JSON.stringify(items).length <= TOOL_MAX_CHARS) return items;
	const note = `Long texts and lists were cut to keep the answer under ${TOOL_MAX_CHARS} characters; ask for fewer fields (Fields to Return) or fewer records.`;
	for (const step of SHORTENING) {
		const marked = items.map((item) => ({
			...(shortened(item, step, 0) as IDataObject),
			truncated: note,
		}));
		if (JSON.stringify(marked).length <= TOOL_MAX_CHARS) return marked;
	}
	return items.map((item) => {
		const whole: IDataObject = {
			error: `The answer is too large for a tool (over ${TOOL_MAX_CHARS} characters even shortened): ask for fewer fields (Fields to Return) or fewer records.`,
		};
		for (const [key, value] of Object.entries(item)) if (keptWhole(key, value)) whole[key] = value;
		return whole;
	});
}
