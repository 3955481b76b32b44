import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { lossyNumberAt, lossyProblem } from '../../../shared/jsonNumbers';
import { describeValue, isJsonObject, jsonObjectOf, jsonOf } from '../../../shared/service';
import type { ValueCheck } from '../validation';
import { inputError } from '../validation';
import type { Kind } from './kind';
import { editor, isUnsetValue } from './kind';

/** A JSON object or list of objects whose keys are not published: shape checked, passed through. */

function jsonKind(list: boolean): Kind {
	return {
		property: (spec) => editor(spec, 'json', list ? '[]' : '{}'),
		read({ ctx, itemIndex, label }, spec, raw) {
			const parse = list ? parseJsonList : parseJsonObject;
			const value = isUnsetValue(raw) ? undefined : parse(ctx, itemIndex, label, raw);
			const empty = value === undefined || (!spec.emptyAllowed && Object.keys(value).length === 0);
			if (!spec.required || !empty) return value;
			const example = list ? 'list such as [{"key": "value"}]' : 'object such as {"key": "value"}';
			throw inputError(ctx, itemIndex, label, `is required but empty; give a JSON ${example}`);
		},
		words: () => (list ? 'list of objects' : 'object'),
	};
}

export const json = jsonKind(false);
export const jsonArray = jsonKind(true);

/** Numbers that lost digits when the JSON was read are refused, never sent rounded. */
function exact<T>(ctx: IExecuteFunctions, itemIndex: number, field: string, value: T): T {
	const lossy = lossyNumberAt(value);
	if (lossy !== undefined) throw inputError(ctx, itemIndex, field, lossyProblem(lossy));
	return value;
}

/** A JSON parameter (text or a value) as an object. */
export const parseJsonObject: ValueCheck<IDataObject> = (ctx, itemIndex, field, value) => {
	const parsed = jsonObjectOf(value);
	if ('problem' in parsed) throw inputError(ctx, itemIndex, field, parsed.problem);
	return exact(ctx, itemIndex, field, parsed.object as IDataObject);
};

/** A JSON parameter (text or a value) as a list of objects. */
export const parseJsonList: ValueCheck<IDataObject[]> = (ctx, itemIndex, field, value) => {
	const read = typeof value === 'string' ? jsonOf(value) : { value };
	if ('problem' in read) throw inputError(ctx, itemIndex, field, read.problem);
	const list = read.value;
	if (!Array.isArray(list) || !list.every(isJsonObject)) {
		const problem = `must be a JSON list of objects like [{"key": "value"}], got ${describeValue(list)}`;
		throw inputError(ctx, itemIndex, field, problem);
	}
	return exact(ctx, itemIndex, field, list as IDataObject[]);
};
