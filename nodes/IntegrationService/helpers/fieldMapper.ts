import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { isFieldGroup, UPDATE_FIELDS, writesNothing } from './fieldGroups';
import { setIfDefined, wireValue } from './fieldValue';
import { companionOf, isCompanion, wholeValue } from './fields/companion';
import { bodyFromInput, bodyFromRecord, MAPPING_MODE } from './mappingModes';
import { inputError } from './validation';

/**
 * One way to turn an operation's body fields into the request body, driven by the operation's own
 * properties: the parameter name is the wire field, the display name labels errors, the type (and
 * `required`, `minValue`, `multipleValues`, a JSON default of `[]`) says how the value is checked. A field
 * inside a collection is labelled `Collection › Field`, the same in every operation. How one value is
 * read is in fieldValue.ts, the compound fields in fields/, Map Automatically and Record (JSON) in
 * mappingModes.ts.
 */

// The names operations and tests import from here, kept where they were.
export { fieldGroup } from './fieldGroups';
export { mappingModeProperties, shownWhenMappedFromForm } from './mappingModes';
export { COMPOUND_FIELDS } from './fields';
export { ADDRESS_PARTS } from './fields/addresses';
export { COMMUNICATION_CHANNELS } from './fields/consent';
export { flagLabel } from './fields/flags';

/**
 * One field's wire value from the form: a list with its "(JSON)" companion set is read from that
 * one value (fields/companion.ts); the companion itself is never a wire field.
 */
function formValue(
	ctx: IExecuteFunctions,
	itemIndex: number,
	field: INodeProperties,
	scope: { label: string; properties: INodeProperties[]; raw: (name: string) => unknown },
): unknown {
	const label = `${scope.label}${field.displayName}`;
	const companion = companionOf(field, scope.properties);
	const entries = scope.raw(field.name);
	if (!companion) return wireValue(ctx, itemIndex, field, label, entries);
	const companionLabel = `${scope.label}${companion.displayName}`;
	const labels = { field: label, companion: companionLabel };
	const whole = wholeValue(ctx, itemIndex, labels, scope.raw(companion.name), entries);
	return whole === undefined
		? wireValue(ctx, itemIndex, field, label, entries)
		: wireValue(ctx, itemIndex, field, companionLabel, whole);
}

/** A field group's fields, each found by its name or its "(JSON)" companion's (an item adds a few of dozens). */
interface GroupPlan {
	group: INodeProperties;
	options: INodeProperties[];
	fields: INodeProperties[];
	byKey: Map<string, number>;
	/** Read whether added or not: the service requires them. */
	required: number[];
}

/** How a form is read, worked out once per set of properties: in their order, fields and groups. */
type FormPlan = Array<{ field: INodeProperties } | GroupPlan>;

const formPlans = new WeakMap<INodeProperties[], FormPlan>();

function groupPlan(group: INodeProperties): GroupPlan {
	const options = (group.options ?? []) as INodeProperties[];
	const fields = options.filter((field) => !isCompanion(field));
	const byKey = new Map<string, number>();
	fields.forEach((field, at) => {
		byKey.set(field.name, at);
		const companion = companionOf(field, options);
		if (companion) byKey.set(companion.name, at);
	});
	const required = fields.flatMap((field, at) => (field.required ? [at] : []));
	return { group, options, fields, byKey, required };
}

function formPlan(properties: INodeProperties[]): FormPlan {
	let plan = formPlans.get(properties);
	if (!plan) {
		plan = properties
			.filter((property) => !isCompanion(property))
			.map((property) => (isFieldGroup(property) ? groupPlan(property) : { field: property }));
		formPlans.set(properties, plan);
	}
	return plan;
}

/** The fields of a group to read for an item, in the group's order: those added (or their companions), and the required ones. */
function fieldsToRead(plan: GroupPlan, added: IDataObject): INodeProperties[] {
	const picked = new Set(plan.required);
	for (const key of Object.keys(added)) {
		const at = plan.byKey.get(key);
		if (at !== undefined) picked.add(at);
	}
	return [...picked].sort((a, b) => a - b).map((at) => plan.fields[at]);
}

/** The body from the node's parameters: top-level fields and those added to a field group. */
function bodyFromForm(
	ctx: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
): IDataObject {
	const body: IDataObject = {};
	const topLevel = {
		label: '',
		properties,
		raw: (name: string) => {
			const property = properties.find((one) => one.name === name);
			return ctx.getNodeParameter(name, itemIndex, property?.default);
		},
	};
	for (const step of formPlan(properties)) {
		if ('field' in step) {
			setIfDefined(body, step.field.name, formValue(ctx, itemIndex, step.field, topLevel));
			continue;
		}
		const { group, options } = step;
		const added = (ctx.getNodeParameter(group.name, itemIndex, group.default) ?? {}) as IDataObject;
		const scope = {
			label: `${group.displayName} › `,
			properties: options,
			raw: (name: string) => added[name],
		};
		// An optional field that is not added (nor its companion) writes nothing: it is not read.
		for (const field of fieldsToRead(step, added))
			setIfDefined(body, field.name, formValue(ctx, itemIndex, field, scope));
	}
	return body;
}

/**
 * The request body of one item. Every check runs here, before anything is sent. With `mappingModes`,
 * the item's Mapping Mode says whether the body comes from the form, the input item or Record (JSON).
 * An Update's or a Create's body with no field is refused (the two other modes refuse it themselves).
 */
export function readBody(
	ctx: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
	options: { mappingModes?: boolean; create?: boolean } = {},
): IDataObject {
	const mode = options.mappingModes
		? ctx.getNodeParameter('mappingMode', itemIndex, MAPPING_MODE.fromForm)
		: MAPPING_MODE.fromForm;
	if (mode === MAPPING_MODE.fromInput) return bodyFromInput(ctx, itemIndex, properties);
	if (mode === MAPPING_MODE.fromRecord) return bodyFromRecord(ctx, itemIndex, properties);
	const body = bodyFromForm(ctx, itemIndex, properties);
	const updateGroup = properties.find((property) => property.name === UPDATE_FIELDS);
	if (updateGroup && writesNothing(body)) {
		throw inputError(ctx, itemIndex, updateGroup.displayName, 'add at least one field');
	}
	// A Create with nothing set (every field empty, from an expression too) would create an empty record.
	if (options.create && writesNothing(body)) {
		const group = properties.find(isFieldGroup);
		throw inputError(
			ctx,
			itemIndex,
			group?.displayName ?? 'Fields',
			'set at least one field; an empty record is not created',
		);
	}
	return body;
}
