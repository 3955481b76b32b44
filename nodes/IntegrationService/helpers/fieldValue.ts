import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { compoundReader, type CompoundReader } from './fields';
import {
	inputError,
	optionalText,
	parseJsonParameter,
	requireText,
	toBoolean,
	toStringList,
} from './validation';
import { toNumber } from './numbers';

/** How one field's value is read and checked, from its property (type, `required`, `minValue`, …). */

function isUnset(raw: unknown): boolean {
	return raw === undefined || raw === null || raw === '';
}

/**
 * A value of a number, boolean or JSON field that says nothing: unset, or text of blanks only (what a
 * model's text-typed `$fromAI` gives when it does not know). Text fields keep blanks as written.
 */
function isUnsetValue(raw: unknown): boolean {
	return isUnset(raw) || (typeof raw === 'string' && raw.trim() === '');
}

/**
 * An optional number offered as text that holds a number. n8n's "let the model define this parameter"
 * writes `$fromAI(key, description, <the parameter's type>)` and makes every key a required value of
 * that type: a number parameter makes the model give a number (0 when it knows none), a text one lets
 * it give "" (not set). n8n's editor checks typed text with `validateType`; the node checks it when it
 * runs (`ignoreValidationDuringExecution`, so its own messages and the "not set" rule apply).
 */
export function optionalNumberProperty(
	property: Omit<INodeProperties, 'type' | 'default'>,
): INodeProperties {
	return {
		...property,
		type: 'string',
		default: '',
		validateType: 'number',
		ignoreValidationDuringExecution: true,
	};
}

/** A parameter whose value is a number: a number parameter, or text that holds one (above). */
function isNumberField(property: INodeProperties): boolean {
	return (
		property.type === 'number' || (property.type === 'string' && property.validateType === 'number')
	);
}

function isEmpty(value: IDataObject | IDataObject[]): boolean {
	return Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0;
}

/** A compound field's wire value; empty is not sent, or refused when the service requires the field. */
function compoundValue(
	ctx: IExecuteFunctions,
	itemIndex: number,
	property: INodeProperties,
	label: string,
	raw: unknown,
	read: CompoundReader,
): unknown {
	const value = isUnset(raw) ? [] : read(ctx, itemIndex, label, raw);
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

/** A number field: `minValue` is its lower bound. */
function numberValue(
	ctx: IExecuteFunctions,
	itemIndex: number,
	label: string,
	raw: unknown,
	min: number | undefined,
): number {
	const number = toNumber(ctx, itemIndex, label, raw);
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

/**
 * The specification's objects whose contents it does not show (shared decisions: taken as JSON and
 * checked only as objects): `{}` may be all an external application needs, so it is sent.
 */
const OPAQUE_OBJECTS = new Set(['userInputs']);

/** A JSON field's value; a required one that is `{}` or `[]` (its default, say) is required but empty. */
function jsonValue(
	ctx: IExecuteFunctions,
	itemIndex: number,
	property: INodeProperties,
	label: string,
	raw: unknown,
): IDataObject | IDataObject[] {
	const isList = String(property.default).trim().startsWith('[');
	const value = isList
		? parseJsonParameter(ctx, itemIndex, label, raw, 'arrayOfObjects')
		: parseJsonParameter(ctx, itemIndex, label, raw, 'object');
	if (property.required && isEmpty(value) && !OPAQUE_OBJECTS.has(property.name)) {
		const example = isList ? 'a JSON list such as [{"key": "value"}]' : REQUIRED_JSON_EXAMPLE;
		throw inputError(ctx, itemIndex, label, `is required but empty; give ${example}`);
	}
	return value;
}

const REQUIRED_JSON_EXAMPLE = 'a JSON object such as {"key": "value"}';

/** The wire value of one field, or undefined when it is not set and must not be sent. */
export function wireValue(
	ctx: IExecuteFunctions,
	itemIndex: number,
	property: INodeProperties,
	label: string,
	raw: unknown,
): unknown {
	const compound = compoundReader(property, wireValue);
	if (compound) return compoundValue(ctx, itemIndex, property, label, raw, compound);
	if (isNumberField(property)) {
		if (!isUnsetValue(raw))
			return numberValue(ctx, itemIndex, label, raw, property.typeOptions?.minValue);
		if (property.required) throw inputError(ctx, itemIndex, label, 'is required but empty');
		return undefined;
	}
	if (property.required && property.type === 'json' && isUnsetValue(raw)) {
		throw inputError(ctx, itemIndex, label, `is required but empty; give ${REQUIRED_JSON_EXAMPLE}`);
	}
	if (property.required && property.type === 'string' && !property.typeOptions?.multipleValues)
		return requireText(ctx, itemIndex, label, raw);
	if (property.type === 'string' ? isUnset(raw) : isUnsetValue(raw)) return undefined;
	switch (property.type) {
		case 'string': {
			if (!property.typeOptions?.multipleValues) return optionalText(ctx, itemIndex, label, raw);
			const list = toStringList(ctx, itemIndex, label, raw);
			return list.length ? list : undefined;
		}
		case 'boolean':
			return toBoolean(ctx, itemIndex, label, raw);
		case 'json':
			return jsonValue(ctx, itemIndex, property, label, raw);
		default:
			// A field type added to an operation without teaching the mapper: a defect, caught by the tests.
			throw new Error(`The field mapper cannot read "${property.name}" of type ${property.type}`);
	}
}

export function setIfDefined(body: IDataObject, name: string, value: unknown): void {
	if (value !== undefined) body[name] = value as IDataObject[keyof IDataObject];
}
