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

/**
 * An optional field of a group that is not added, nor its "(JSON)" companion: it writes nothing, so it
 * is not read (a group offers dozens of fields, an item adds a few).
 */
function notAdded(field: INodeProperties, options: INodeProperties[], added: IDataObject): boolean {
	if (field.required || added[field.name] !== undefined) return false;
	const companion = companionOf(field, options);
	return companion === undefined || added[companion.name] === undefined;
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
	for (const property of properties) {
		if (isCompanion(property)) continue;
		if (!isFieldGroup(property)) {
			setIfDefined(body, property.name, formValue(ctx, itemIndex, property, topLevel));
			continue;
		}
		const added = (ctx.getNodeParameter(property.name, itemIndex, property.default) ??
			{}) as IDataObject;
		const options = (property.options ?? []) as INodeProperties[];
		const group = {
			label: `${property.displayName} › `,
			properties: options,
			raw: (name: string) => added[name],
		};
		for (const field of options) {
			if (isCompanion(field) || notAdded(field, options, added)) continue;
			setIfDefined(body, field.name, formValue(ctx, itemIndex, field, group));
		}
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
