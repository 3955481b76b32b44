import type { IExecuteFunctions } from 'n8n-workflow';

/**
 * A parameter that holds no expression has the same value for every item, yet n8n resolves it anew
 * (a walk and a copy of the value) on every `getNodeParameter` call: five reads per item made that a
 * good part of a create's CPU beside a bare request (docs/performance.md). The run reads such a
 * parameter once and hands each item its own copy; anything with an expression anywhere in it (a
 * `$json` field, a model's `$fromAI`), a nested path or read options still goes to n8n every time.
 */

function holdsExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.startsWith('=');
	if (Array.isArray(value)) return value.some(holdsExpression);
	if (value !== null && typeof value === 'object')
		return Object.values(value).some(holdsExpression);
	return false;
}

/** A copy, so that no item can change what the next one reads (an empty one made directly: most are). */
function copyOf<T>(value: T): T {
	if (value === null || typeof value !== 'object') return value;
	if (Array.isArray(value) && value.length === 0) return [] as T;
	if (Object.getPrototypeOf(value) === Object.prototype && Object.keys(value).length === 0)
		return {} as T;
	return structuredClone(value);
}

/**
 * What an item's read asks n8n to leave out: its check of the value against the property, which finds
 * the property by a scan of all the node's properties (about 400) for every read. It checks only
 * `validateType` (ours are all `ignoreValidationDuringExecution`: the node checks its own values,
 * fieldValue.ts) and resource mappers (none); test/unit/runParameters.test.ts holds both true.
 */
export const ITEM_READ: Readonly<{ skipValidation: true }> = Object.freeze({
	skipValidation: true,
});

/** `ctx` whose `getNodeParameter` reads each expression-free top-level parameter once per run. */
export function withRunParameters(ctx: IExecuteFunctions): IExecuteFunctions {
	const raw = ctx.getNode().parameters;
	const constant = new Set(Object.keys(raw).filter((name) => !holdsExpression(raw[name])));
	const read = new Map<string, unknown>();
	const getNodeParameter = ((
		name: string,
		itemIndex: number,
		fallback?: unknown,
		options?: unknown,
	) => {
		if (options !== undefined || !constant.has(name)) {
			return ctx.getNodeParameter(
				name,
				itemIndex,
				fallback as never,
				(options ?? ITEM_READ) as never,
			);
		}
		if (!read.has(name)) read.set(name, ctx.getNodeParameter(name, itemIndex, fallback as never));
		return copyOf(read.get(name));
	}) as IExecuteFunctions['getNodeParameter'];
	// Each method bound once, not on every access: the transport reaches several per request.
	const bound = new Map<PropertyKey, { of: unknown; as: unknown }>();
	return new Proxy(ctx, {
		get: (target, property) => {
			if (property === 'getNodeParameter') return getNodeParameter;
			const value = Reflect.get(target, property, target) as unknown;
			if (typeof value !== 'function') return value;
			const known = bound.get(property);
			if (known?.of === value) return known.as;
			const as = value.bind(target) as unknown;
			bound.set(property, { of: value, as });
			return as;
		},
	});
}
