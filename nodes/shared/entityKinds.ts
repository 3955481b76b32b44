/**
 * The 27 entity kinds of spec 2.3, in the specification's order: the flags a connection synchronises
 * (Entities to Sync) and, with people, the kinds whose events the trigger offers.
 */
export const ENTITY_KINDS = [
	'appointments',
	'borrowers',
	'calls',
	'calendars',
	'calendarEvents',
	'customFields',
	'events',
	'lists',
	'loans',
	'notes',
	'offices',
	'properties',
	'smartLists',
	'tasks',
	'taskTemplates',
	'teams',
	'textMessages',
	'emailMessages',
	'appointmentOutcomes',
	'appointmentTypes',
	'stages',
	'emailThreads',
	'documents',
	'sources',
	'timeframes',
	'peopleRelationships',
	'ponds',
] as const;
