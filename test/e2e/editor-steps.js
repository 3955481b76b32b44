'use strict';
/**
 * The editor steps the e2e checks share: a new workflow with the node creator's search open, and
 * our node's actions shown after a Manual Trigger.
 */

const NODE_DISPLAY_NAME = 'Integration Service';

/** A new workflow with its first step's search bar open; gives the search bar. */
async function newWorkflowSearch(page, base, dismissPopups, pageLoadMs) {
	await page.goto(`${base}/workflow/new`, { waitUntil: 'domcontentloaded', timeout: pageLoadMs });
	await dismissPopups(page);
	const addFirst = page
		.locator('[data-test-id="canvas-add-button"], [data-test-id="canvas-plus-button"]')
		.first();
	await addFirst.waitFor({ timeout: 30000 });
	await addFirst.click();
	const search = page
		.locator(
			'[data-test-id="node-creator-search-bar"] input, [data-test-id="node-creator-search-bar"]',
		)
		.first();
	await search.waitFor();
	return search;
}

/**
 * A Manual Trigger, then our node's actions in the node creator. The package has a trigger, and n8n's
 * first-step panel then offers only the app's triggers: start with a Manual Trigger and add the node
 * after it, as a user building an action workflow does.
 */
async function openNodeActions(page, base, dismissPopups, pageLoadMs) {
	const search = await newWorkflowSearch(page, base, dismissPopups, pageLoadMs);
	await search.fill('Manual');
	await page
		.locator('[data-test-id="node-creator-node-item"]', {
			hasText: /trigger manually|manual trigger/i,
		})
		.first()
		.click();
	await page.keyboard.press('Escape');
	const plus = page.locator('[data-test-id="canvas-handle-plus"]').first();
	await plus.waitFor({ timeout: 20000 });
	await plus.click();
	await search.waitFor();
	await search.fill(NODE_DISPLAY_NAME);
	const item = page
		.locator('[data-test-id="node-creator-node-item"], [data-test-id="node-creator-action-item"]', {
			hasText: NODE_DISPLAY_NAME,
		})
		.first();
	// The result list re-renders while the search settles: click until the node's actions show.
	for (let attempt = 1; ; attempt++) {
		await item.waitFor();
		await page.waitForTimeout(500);
		await item.click().catch(() => {});
		try {
			await page
				.locator('[data-test-id="node-creator-category-item"]', { hasText: /^\s*Actions/ })
				.first()
				.waitFor({ timeout: 5000 });
			return;
		} catch (e) {
			if (attempt >= 4) throw e;
		}
	}
}

module.exports = { NODE_DISPLAY_NAME, newWorkflowSearch, openNodeActions };
