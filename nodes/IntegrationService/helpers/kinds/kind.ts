import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { FieldSpec } from '../../../shared/catalogue';
import { inputError } from '../validation';

/**
 * What a field's kind does (the catalogue's `type` names it): builds the editor property and reads
 * the item's value into its wire value. One file per kind; index.ts maps each type to its kind.
 */

/** Where a value is read: the item, and the label every error of it names. */
export interface Reading {
	ctx: IExecuteFunctions;
	itemIndex: number;
	label: string;
}

/** The kinds as a whole, for a kind made of parts (a list of objects reads its parts by their kinds). */
export interface Fields {
	property(spec: FieldSpec): INodeProperties;
	/** The property of a part of a list entry. */
	part(spec: FieldSpec): INodeProperties;
	read(at: Reading, spec: FieldSpec, raw: unknown): unknown;
	/** The value of a part of a list entry. */
	readPart(at: Reading, spec: FieldSpec, raw: unknown): unknown;
	words(spec: FieldSpec): string;
}

export interface Kind {
	property(spec: FieldSpec, fields: Fields): INodeProperties;
	/** The property as a part of a list entry, when it differs (an entry holds no collection). */
	part?(spec: FieldSpec, fields: Fields): INodeProperties;
	/** The wire value, or undefined when not set (not sent); an input error naming `at.label` else. */
	read(at: Reading, spec: FieldSpec, raw: unknown, fields: Fields): unknown;
	/** The value as a part of a list entry, when it is read otherwise (one JSON list). */
	readPart?(at: Reading, spec: FieldSpec, raw: unknown, fields: Fields): unknown;
	/** The kind of value in words a model reads (Record (JSON)'s description). */
	words(spec: FieldSpec, fields: Fields): string;
	/** A list: offered with a "(JSON)" companion that takes the whole list as one value. */
	list?: true;
}

/** The parts of a property every plain kind shares: its label and name, and what it shows. */
export const named = (spec: FieldSpec) => ({ displayName: spec.label, name: spec.name });
export const shown = (spec: FieldSpec) => ({
	...(spec.required ? { required: true } : {}),
	...(spec.placeholder !== undefined ? { placeholder: spec.placeholder } : {}),
	description: spec.description,
});

export function isUnset(raw: unknown): boolean {
	return raw === undefined || raw === null || raw === '';
}

/**
 * A value of a number, boolean or JSON field that says nothing: unset, or text of blanks only (what a
 * model's text-typed `$fromAI` gives when it does not know). Text fields keep blanks as written.
 */
export function isUnsetValue(raw: unknown): boolean {
	return isUnset(raw) || (typeof raw === 'string' && raw.trim() === '');
}

const isEmpty = (value: IDataObject | IDataObject[]) =>
	Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0;

/**
 * A list or set of flags: empty is not sent, or refused when the service requires the field (`what`
 * names one entry: "email", "flag").
 */
export function compoundValue(
	at: Reading,
	spec: FieldSpec,
	raw: unknown,
	what: string,
	read: (raw: unknown) => IDataObject | IDataObject[],
): IDataObject | IDataObject[] | undefined {
	const value = isUnset(raw) ? [] : read(raw);
	if (!isEmpty(value)) return value;
	if (!spec.required) return undefined;
	const problem = `add at least one ${what} (the service requires this field)`;
	throw inputError(at.ctx, at.itemIndex, at.label, problem);
}

/** A list kind as a part of an entry: one JSON list (an entry holds no collection). */
export const jsonListPart = (spec: FieldSpec): INodeProperties => ({
	...named(spec),
	type: 'json',
	default: '[]',
	...shown(spec),
});
