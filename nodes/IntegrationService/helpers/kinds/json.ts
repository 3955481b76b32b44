import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { lossyNumberAt, lossyProblem } from '../../../shared/jsonNumbers';
import { describeValue, isJsonObject, jsonObjectOf, jsonOf } from '../../../shared/service';
import { inputError } from '../validation';
import type { Kind } from './kind';
import { isUnsetValue, named, shown } from './kind';

/** A JSON object or list of objects whose keys are not published: shape checked, passed through. */

const OBJECT_EXAMPLE = 'a JSON object such as {"key": "value"}';

function jsonKind(list: boolean): Kind {
	return {
		property: (spec) => ({
			...named(spec),
			type: 'json',
			default: list ? '[]' : '{}',
			...shown(spec),
		}),
		read({ ctx, itemIndex, label }, spec, raw) {
			if (isUnsetValue(raw)) {
				if (spec.required)
					throw inputError(ctx, itemIndex, label, `is required but empty; give ${OBJECT_EXAMPLE}`);
				return undefined;
			}
			const value = list
				? parseJsonParameter(ctx, itemIndex, label, raw, 'arrayOfObjects')
				: parseJsonParameter(ctx, itemIndex, label, raw, 'object');
			const empty = Array.isArray(value) ? value.length === 0 : Object.keys(value).length === 0;
			if (spec.required && empty && !spec.emptyAllowed) {
				const example = list ? 'a JSON list such as [{"key": "value"}]' : OBJECT_EXAMPLE;
				throw inputError(ctx, itemIndex, label, `is required but empty; give ${example}`);
			}
			return value;
		},
		words: () => (list ? 'list of objects' : 'object'),
	};
}

export const json = jsonKind(false);
export const jsonArray = jsonKind(true);

/** A JSON parameter as an object, or a list of objects; numbers that lost digits are refused. */
export function parseJsonParameter(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
	shape: 'object',
): IDataObject;
export function parseJsonParameter(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
	shape: 'arrayOfObjects',
): IDataObject[];
export function parseJsonParameter(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: string,
	value: unknown,
	shape: 'object' | 'arrayOfObjects',
): IDataObject | IDataObject[] {
	if (shape === 'object') {
		const parsed = jsonObjectOf(value);
		if ('problem' in parsed) throw inputError(ctx, itemIndex, field, parsed.problem);
		const lossy = lossyNumberAt(parsed.object);
		if (lossy !== undefined) throw inputError(ctx, itemIndex, field, lossyProblem(lossy));
		return parsed.object as IDataObject;
	}
	let list = value;
	if (typeof value === 'string') {
		const read = jsonOf(value);
		if ('problem' in read) throw inputError(ctx, itemIndex, field, read.problem);
		list = read.value;
	}
	if (!Array.isArray(list) || !list.every(isJsonObject)) {
		const problem = `must be a JSON list of objects like [{"key": "value"}], got ${describeValue(list)}`;
		throw inputError(ctx, itemIndex, field, problem);
	}
	const lossy = lossyNumberAt(list);
	if (lossy !== undefined) throw inputError(ctx, itemIndex, field, lossyProblem(lossy));
	return list as IDataObject[];
}
