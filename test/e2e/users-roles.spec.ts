import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from './test';
import { demoAccount } from '../../server/db/seed/demo-accounts';
import type { Role } from '../../src/contract/roles';
import type { StaffUser } from '../../src/contract/users';
import { apiGet, apiHeaders, apiPost } from './api-session';
import { E2E_EMULATOR_URL } from './stack';
import { expectHeading, signIn } from './sign-in';

// Issue 13. Everything this spec needs it creates itself (roles, invited staff), named per run, so the demo
// accounts and other specs are untouched. The console checks permissions every 5 s here (playwright.config.ts).
const admin = demoAccount('admin');
const superuser = demoAccount('superuser');
const run = Date.now().toString(36);
const PASSWORD = 'e2e-new-staff-1';

const sidebarEntries = (page: Page) => page.getByRole('navigation', { name: 'Sections' }).getByRole('link');

async function signedIn(page: Page, account: { email: string; password: string }, url: string) {
  await page.goto(`/login?redirect=${encodeURIComponent(url)}`);
  await signIn(page, account.email, account.password);
  await expect.poll(() => new URL(page.url()).pathname).toBe(url.split('?')[0]);
}

/** Creates a role as the superuser, through the API. */
async function createRole(request: APIRequestContext, name: string, permissions: object): Promise<Role> {
  const created = await apiPost<Role>(request, await apiHeaders(request, superuser), '/roles', { name, permissions });
  expect(created.status, created.message).toBe(200);
  return created.data;
}

/** Invites a staff member as the superuser and sets their password through the link, as they would. */
async function invitedStaff(request: APIRequestContext, email: string, roleId: number) {
  const invited = await apiPost<{ user: StaffUser; setPasswordLink: string }>(
    request,
    await apiHeaders(request, superuser),
    '/users',
    { email, display_name: `Staff ${run}`, role_id: roleId },
  );
  expect(invited.status, invited.message).toBe(200);
  // The Auth emulator's action page sets the password given in the link.
  expect((await request.get(`${invited.data.setPasswordLink}&newPassword=${PASSWORD}`)).ok()).toBe(true);
  return { email, password: PASSWORD, user: invited.data.user };
}

test('invite, set the password, sign in; a removed feature leaves the open console; disabling signs out', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const role = await createRole(request, `E2E promo and locations ${run}`, {
    pc: { v: [3], a: [3] },
    lo: { v: [1] },
  });
  const email = `invited-${run}@example.com`;

  // The admin invites through the console and is shown the set-password link.
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await signedIn(adminPage, admin, '/user-config');
  await expectHeading(adminPage, 'Users');
  await adminPage.getByRole('button', { name: 'Invite user' }).click();
  const invite = adminPage.getByRole('region', { name: 'Invite a staff member' });
  await invite.getByLabel('E-mail', { exact: true }).fill(email);
  await invite.getByLabel('Name', { exact: true }).fill(`Invited ${run}`);
  await invite.getByLabel('Role', { exact: true }).selectOption({ label: role.name });
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  const link = await invite.getByLabel('Set-password link').inputValue();
  expect(link).toContain('mode=resetPassword');

  // The invited person sets a password on the link's page and signs in: exactly their role's sections.
  const staffContext = await browser.newContext();
  const staffPage = await staffContext.newPage();
  await staffPage.goto(`${link}&newPassword=${PASSWORD}`);
  await expect(staffPage.locator('body')).toContainText(/password/i);
  await signedIn(staffPage, { email, password: PASSWORD }, '/locations');
  await expectHeading(staffPage, 'Locations');
  await expect(sidebarEntries(staffPage)).toHaveText(['Locations', 'Promo Codes']);

  // The admin takes Locations away from the role: the open console loses the entry and the page, unprompted.
  const headers = await apiHeaders(request, admin);
  const changed = await apiPost<Role>(request, headers, `/roles/${role.role_id}`, {
    name: role.name,
    permissions: { pc: { v: [3], a: [3] } },
    version: role.version,
  });
  expect(changed.status, changed.message).toBe(200);
  await expect(sidebarEntries(staffPage)).toHaveText(['Promo Codes'], { timeout: 60_000 });
  await expectHeading(staffPage, 'Access denied');

  // The admin disables them (asked first); their next action signs them out, saying why.
  await invite.getByRole('button', { name: 'Done' }).click();
  await adminPage.getByLabel('Name or e-mail').fill(email);
  await adminPage.getByRole('button', { name: 'Search' }).click();
  await adminPage.getByRole('button', { name: `Edit Invited ${run}` }).click();
  await adminPage.getByRole('button', { name: 'Disable' }).click();
  await adminPage.getByRole('alertdialog').getByRole('button', { name: 'Disable' }).click();
  await expect(adminPage.getByText('Staff member disabled', { exact: true })).toBeVisible();

  await sidebarEntries(staffPage).filter({ hasText: 'Promo Codes' }).click();
  await expect.poll(() => new URL(staffPage.url()).pathname).toBe('/login');
  await expect(staffPage.getByText('This staff account is disabled.')).toBeVisible();

  await adminContext.close();
  await staffContext.close();
});

test('a role editor holding promo codes at one location cannot grant them elsewhere; the grid works by keyboard; the edit has an address', async ({
  page,
  request,
}) => {
  const everywhere = [1, 2, 3, 4, 5, 6];
  const editorRole = await createRole(request, `E2E role editor ${run}`, {
    ur: { v: everywhere, a: everywhere, e: everywhere },
    pc: { e: [3] },
  });
  const editor = await invitedStaff(request, `role-editor-${run}@example.com`, editorRole.role_id);

  await signedIn(page, editor, '/role-Config');
  await expectHeading(page, 'User Roles');
  await page.getByRole('button', { name: 'New role' }).click();
  await expect.poll(() => new URL(page.url()).search).toBe('?new=1');
  const editorPanel = page.getByRole('region', { name: 'New role' });
  await editorPanel.getByLabel('Location', { exact: true }).selectOption({ label: 'Pike Place Market Garage' });
  const grid = editorPanel.getByRole('region', { name: 'Permissions at Pike Place Market Garage' });
  // Offered where the editor holds promo codes, and only up to the level they hold; not offered anywhere else.
  const pikeAdd = grid.getByRole('checkbox', { name: 'Promo codes – add – Pike Place Market Garage', exact: true });
  await expect(pikeAdd).toBeEnabled();
  await expect(grid.getByRole('checkbox', { name: 'Promo codes – delete – Pike Place Market Garage' })).toBeDisabled();
  await expect(grid.getByRole('checkbox', { name: 'Locations – view – Pike Place Market Garage' })).toBeDisabled();
  await editorPanel.getByLabel('Location', { exact: true }).selectOption({ label: 'Union Station Garage' });
  await expect(editorPanel.getByRole('checkbox', { name: 'Promo codes – view – Union Station Garage' })).toBeDisabled();
  await editorPanel.getByLabel('Location', { exact: true }).selectOption({ label: 'Pike Place Market Garage' });

  // Keyboard alone: type the name, move to the box, tick it, review and save.
  await editorPanel.getByLabel('Role name').focus();
  await page.keyboard.type(`E2E keyboard role ${run}`);
  await pikeAdd.focus();
  await page.keyboard.press('Space');
  await expect(pikeAdd).toBeChecked();
  await expect(page.getByRole('listitem').filter({ hasText: 'Promo codes: add at Pike Place Market Garage' })).toBeVisible();
  await page.getByRole('button', { name: 'Review changes' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Adds Promo codes: add at Pike Place Market Garage')).toBeVisible();
  await expect(page.getByText('Adds Promo codes: view at Pike Place Market Garage')).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Role saved', { exact: true })).toBeVisible();
  const heading = page.getByRole('heading', { name: `Edit role E2E keyboard role ${run}` });
  await expect(heading).toBeVisible();

  // The saved role has an address: a reload and a copied link (a new tab) open the same editor with the same grant.
  await expect.poll(() => new URL(page.url()).searchParams.get('edit')).toMatch(/^\d+$/);
  const address = page.url();
  const granted = (target: Page) =>
    target
      .getByRole('region', { name: `Edit role E2E keyboard role ${run}` })
      .getByRole('checkbox', { name: 'Promo codes – add – Pike Place Market Garage', exact: true });
  await page.reload();
  await expect(heading).toBeVisible();
  await expect(granted(page)).toBeChecked();
  const copied = await page.context().newPage();
  await copied.goto(address);
  await expect(copied.getByRole('heading', { name: `Edit role E2E keyboard role ${run}` })).toBeVisible();
  await expect(granted(copied)).toBeChecked();
  await copied.close();

  // A forged request for promo codes elsewhere is refused, and nothing is created.
  const headers = await apiHeaders(request, editor);
  const forged = await apiPost(request, headers, '/roles', {
    name: `E2E forged ${run}`,
    permissions: { pc: { v: [1] } },
  });
  expect(forged.status).toBe(403);
  expect(forged.message).toContain('Promo codes: view at Union Station Garage');

  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations, `role editor at ${width}px`).toEqual([]);
  }
});

// Staff records belong to no location: their times are on the viewer's clock, here a browser in Chicago.
test.describe('on a browser in Chicago', () => {
  test.use({ timezoneId: 'America/Chicago' });

  test('the users list fits at 1280 px; it and the invite form have no accessibility violations at 360 px and on a desktop', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await signedIn(page, admin, '/user-config');
    await expectHeading(page, 'Users');
    await expect(page.getByRole('table', { name: 'Staff members' })).toBeVisible();
    // Every column at 1280 px beside the open sidebar, none clipped: the table needs no sideways scroll, and sign-in
    // times read on the viewer's clock (this browser's is Chicago's), not UTC.
    const table = page.getByRole('table', { name: 'Staff members' });
    await expect(table.getByRole('columnheader')).toHaveText([/Name/, /E-mail/, /Role/, 'Locations', /Status/, /Last sign-in/, 'Actions']);
    const region = page.getByRole('region', { name: 'Staff members' });
    expect(await region.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
    await expect(table).toContainText(/\d{1,2}:\d{2} [AP]M C[SD]T/);
    await expect(table).not.toContainText('UTC');
    await page.getByRole('button', { name: 'Invite user' }).click();
    await expect.poll(() => new URL(page.url()).search).toBe('?invite=1');
    await expect(page.getByRole('region', { name: 'Invite a staff member' }).getByLabel('Role', { exact: true })).toBeVisible();
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations, `users at ${width}px`).toEqual([]);
    }
  });
});

test('a Users edit survives a reload and a copied link', async ({ page, request }) => {
  const role = await createRole(request, `E2E renamed ${run}`, { pc: { v: [3] } });
  const email = `renamed-${run}@example.com`;
  const invited = await apiPost<{ user: StaffUser }>(request, await apiHeaders(request, superuser), '/users', {
    email,
    display_name: `Before ${run}`,
    role_id: role.role_id,
  });
  expect(invited.status, invited.message).toBe(200);

  await signedIn(page, admin, `/user-config?q=${encodeURIComponent(email)}`);
  await page.getByRole('button', { name: `Edit Before ${run}` }).click();
  await expect.poll(() => new URL(page.url()).searchParams.get('edit')).toBe(String(invited.data.user.user_id));
  const before = page.getByRole('region', { name: `Edit Before ${run}` });
  await before.getByLabel('Name', { exact: true }).fill(`After ${run}`);
  await before.getByRole('button', { name: 'Save', exact: true }).click();
  const panel = (target: Page) => target.getByRole('region', { name: `Edit After ${run}` });
  await expect(panel(page)).toBeVisible();
  const address = page.url();
  expect(new URL(address).searchParams.get('q')).toBe(email);

  await page.reload();
  await expect(panel(page).getByLabel('Name', { exact: true })).toHaveValue(`After ${run}`);
  const copied = await page.context().newPage();
  await copied.goto(address);
  await expect(panel(copied).getByLabel('Name', { exact: true })).toHaveValue(`After ${run}`);
  // Closing the editor leaves the list's search in the address.
  await panel(copied).getByRole('button', { name: 'Cancel' }).click();
  await expect(panel(copied)).toHaveCount(0);
  await expect.poll(() => new URL(copied.url()).searchParams.has('edit')).toBe(false);
  expect(new URL(copied.url()).searchParams.get('q')).toBe(email);
  await copied.close();

  // An id that is not there: said in words, with the way back.
  await page.goto(`/user-config?edit=2147483000`);
  const missing = page.getByRole('region', { name: 'Staff member not found' });
  await expect(missing).toBeVisible();
  await missing.getByRole('button', { name: 'Back to the staff list' }).click();
  await expect(page.getByRole('table', { name: 'Staff members' })).toBeVisible();
});

test('an invitation nobody used can be deleted, its sign-in account with it', async ({ page, request }) => {
  const role = await createRole(request, `E2E short-lived ${run}`, { pc: { v: [3] } });
  const email = `mistyped-${run}@example.com`;
  const invited = await apiPost<{ user: StaffUser }>(request, await apiHeaders(request, superuser), '/users', {
    email,
    display_name: `Mistyped ${run}`,
    role_id: role.role_id,
  });
  expect(invited.status, invited.message).toBe(200);
  const registered = async () => {
    const response = await request.post(`${E2E_EMULATOR_URL}/identitytoolkit.googleapis.com/v1/accounts:createAuthUri?key=demo-api-key`, {
      data: { identifier: email, continueUri: 'http://localhost' },
    });
    return ((await response.json()) as { registered?: boolean }).registered === true;
  };
  expect(await registered()).toBe(true);

  await signedIn(page, admin, `/user-config?q=${encodeURIComponent(email)}`);
  await page.getByRole('button', { name: `Edit Mistyped ${run}` }).click();
  await page.getByRole('button', { name: 'Delete invitation' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Invitation deleted', { exact: true })).toBeVisible();
  await expect(page.getByText('No staff members match')).toBeVisible();
  expect(await registered()).toBe(false);
});

test('a shared role says who holds it; save as new role gives one person other access, the shared role unchanged', async ({
  page,
  request,
}) => {
  const shared = await createRole(request, `E2E shared desk ${run}`, { rp: { v: [1] } });
  const headers = await apiHeaders(request, superuser);
  const invite = async (name: string) => {
    const invited = await apiPost<{ user: StaffUser }>(request, headers, '/users', {
      email: `${name.toLowerCase()}-${run}@example.com`,
      display_name: `${name} ${run}`,
      role_id: shared.role_id,
    });
    expect(invited.status, invited.message).toBe(200);
    return invited.data.user;
  };
  await invite('Ana');
  const bo = await invite('Bo');

  await signedIn(page, admin, `/user-config?edit=${bo.user_id}`);
  const panel = page.getByRole('region', { name: `Edit Bo ${run}` });
  await expect(panel.getByText(`Also held by: Ana ${run}.`)).toBeVisible();

  await panel.getByRole('button', { name: 'Save as new role…' }).click();
  const form = page.getByRole('region', { name: 'Save as new role' });
  await form.getByLabel('New role name').fill(`E2E desk lead ${run}`);
  await form.getByRole('checkbox', { name: 'Refund portal – edit – Union Station Garage' }).check();
  await form.getByRole('button', { name: `Create role and give it to Bo ${run}` }).click();
  await expect(page.getByText(`Saved with the new role E2E desk lead ${run}`, { exact: true })).toBeVisible();
  await expect(panel.getByLabel('Role', { exact: true }).locator('option:checked')).toHaveText(`E2E desk lead ${run}`);

  const saved = await apiGet<StaffUser>(request, headers, `/users/${bo.user_id}`);
  expect(saved.data.role_name).toBe(`E2E desk lead ${run}`);
  const lead = await apiGet<Role>(request, headers, `/roles/${saved.data.role_id}`);
  expect(lead.data.permissions.rp).toEqual({ v: [], a: [], e: [1], d: [] });
  const after = await apiGet<Role>(request, headers, `/roles/${shared.role_id}`);
  expect(after.data).toMatchObject({ permissions: shared.permissions, version: shared.version, user_count: 1 });
});
