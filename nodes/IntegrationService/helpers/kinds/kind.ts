import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { FieldSpec } from '../../../shared/catalogue';
import type { Reading } from '../validation';
import { inputError } from '../validation';

/** The kinds as a whole, for a kind made of parts. */
export interface Fields {
	property(spec: FieldSpec): INodeProperties;
	part(spec: FieldSpec): INodeProperties;
	read(at: Reading, spec: FieldSpec, raw: unknown): unknown;
	readPart(at: Reading, spec: FieldSpec, raw: unknown): unknown;
	words(spec: FieldSpec): string;
}

/** A field's kind builds its editor property and reads the item's value into its wire value. */
export interface Kind {
	property(spec: FieldSpec, fields: Fields): INodeProperties;
	/** As a part of a list entry, when it differs (an entry holds no collection). */
	part?(spec: FieldSpec, fields: Fields): INodeProperties;
	/** The wire value, or undefined when not set. */
	read(at: Reading, spec: FieldSpec, raw: unknown, fields: Fields): unknown;
	readPart?(at: Reading, spec: FieldSpec, raw: unknown, fields: Fields): unknown;
	/** The kind of value in words a model reads (Record (JSON)'s description). */
	words(spec: FieldSpec, fields: Fields): string;
	/** Offered with a "(JSON)" companion that takes the whole list as one value. */
	list?: true;
}

export const named = (spec: FieldSpec) => ({ displayName: spec.label, name: spec.name });
export const shown = (spec: FieldSpec) => ({
	...(spec.required ? { required: true } : {}),
	...(spec.placeholder !== undefined ? { placeholder: spec.placeholder } : {}),
	description: spec.description,
});

/** A field as one editor of `type`, showing `initial` until set. */
export const editor = (
	spec: FieldSpec,
	type: INodeProperties['type'],
	initial: INodeProperties['default'],
	typeOptions?: INodeProperties['typeOptions'],
): INodeProperties => ({
	...named(spec),
	type,
	...(typeOptions ? { typeOptions } : {}),
	default: initial,
	...shown(spec),
});

/** Blanks say nothing in a number, boolean or JSON field (a model's `$fromAI` gives them); text keeps them. */
export function isUnsetValue(raw: unknown): boolean {
	return raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
}

/** A list or set of flags: empty is not sent, or refused when required (`what` names one entry). */
export function compoundValue<T extends IDataObject | unknown[]>(
	at: Reading,
	spec: FieldSpec,
	raw: unknown,
	what: string,
	read: (raw: unknown) => T,
): T | undefined {
	const value = raw === undefined || raw === null || raw === '' ? undefined : read(raw);
	if (value !== undefined && Object.keys(value).length > 0) return value;
	if (!spec.required) return undefined;
	const problem = `add at least one ${what} (the service requires this field)`;
	throw inputError(at.ctx, at.itemIndex, at.label, problem);
}
