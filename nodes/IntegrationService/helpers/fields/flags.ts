import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { inputError, refuseUnknownKeys, toBoolean } from '../validation';

/** A flag's label, from its wire key: `massEmail` → `Mass Email`. */
export function flagLabel(key: string): string {
	return key.replace(/([A-Z])/g, ' $1').replace(/^./, (first) => first.toUpperCase());
}

/**
 * A set of boolean flags as one collection: a flag the user adds is sent as its value (true or false),
 * a flag not added is left out of the body (its default is not shown, decisions.md).
 */
export function flagsProperty(
	name: string,
	displayName: string,
	keys: readonly string[],
	flagDescription: (key: string) => string,
	overrides: Partial<INodeProperties>,
): INodeProperties {
	return {
		displayName,
		name,
		type: 'collection',
		placeholder: 'Add Flag',
		default: {},
		options: keys
			.map((key) => ({
				displayName: flagLabel(key),
				name: key,
				type: 'boolean' as const,
				default: true,
				description: flagDescription(key),
			}))
			.sort((a, b) => a.displayName.localeCompare(b.displayName)),
		...overrides,
	};
}

/**
 * Flags given by the form (an object of booleans) or by an expression or input field (an object, or its
 * JSON text); an unknown key is an error rather than a silently dropped flag.
 */
export function flagsReader(keys: readonly string[]) {
	return (ctx: IExecuteFunctions, itemIndex: number, field: string, raw: unknown): IDataObject => {
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
			// A flag left null (a NULL column) or empty (blanks) is not set, like any optional field.
			if (flag === null || flag === undefined || (typeof flag === 'string' && flag.trim() === ''))
				continue;
			flags[key] = toBoolean(ctx, itemIndex, `${field} › ${flagLabel(key)}`, flag);
		}
		return flags;
	};
}
