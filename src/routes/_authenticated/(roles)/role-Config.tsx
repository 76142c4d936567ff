import { createFileRoute, useRouter } from '@tanstack/react-router';
import { useCallback, useMemo } from 'react';
import { createRole, deleteRole, updateRole } from '../../../api/roles';
import { pageLoadOptions } from '../../../api/page-load';
import { forgivingSearch, loadListPage, type ListResult } from '../../-shared/list-route';
import { requireAccess } from '../../-shared/require-access';
import { roleConfigSearchSchema, roleListQueryOf } from '../../../contract/role-search';
import type { AuditEntry } from '../../../contract/lists';
import type { Role, RoleLocation } from '../../../contract/roles';
import type { AllLocations } from '../../../permissions/all-locations';
import { hasPermission } from '../../../permissions/rules';
import { SectionPage } from '../../../ui/section-page';
import { toast } from '../../../ui/toast/toast-store';
import { EditorProblem, loadEditor, type EditorLoad } from '../../-shared/editor-load';
import { RoleEditor } from './-components/role-editor';
import { RolesList } from './-components/roles-list';
import { useListSearch } from '../../-shared/use-list-search';


/**
 * User roles (spec /role-Config, user roles view): the roles list in the URL, and the open editor too
 * (`?edit=<roleId>`, `?new=1`), so an edit can be reloaded, linked or opened in a new tab. The loader loads the
 * editor's role and its History beside the page and the locations.
 */
export const Route = createFileRoute('/_authenticated/(roles)/role-Config')({
  validateSearch: forgivingSearch(roleConfigSearchSchema),
  loaderDeps: ({ search }) => search,
  beforeLoad: ({ context }) => requireAccess(context, 'userRoles'),
  loader: async ({ context, deps, abortController }): Promise<Loaded> => {
    // A refusal is said on the page (in place, or the editor's problem), never by a toast too.
    const options = pageLoadOptions(abortController);
    // Imported here, not at the top: the entry chunk carries only this route's search check
    // (docs/decisions/0015-admin-code-out-of-the-entry-chunk.md).
    const api = import('../../../api/roles');
    const roleId = deps.edit;
    const [result, locations, mine, editing] = await Promise.all([
      loadListPage(async () => (await api).listRoles(context.api, roleListQueryOf(deps), options)),
      api.then((loaded) => loaded.listRoleLocations(context.api, options)).catch(() => [] as RoleLocation[]),
      // Without it the editor offers no "all locations, now and later" (the server decides anyway).
      api.then((loaded) => loaded.getMyAllLocations(context.api, options)).then((held) => held.all_locations).catch(() => ({})),
      roleId === undefined
        ? null
        : loadEditor(async () => {
            const { getRole, getRoleHistory } = await api;
            const [role, history] = await Promise.all([getRole(context.api, roleId, options), getRoleHistory(context.api, roleId, options)]);
            return { role, history };
          }),
    ]);
    return { result, locations, mine, editing };
  },
  pendingMs: 400,
  pendingComponent: () => <RolesPage loaded={null} />,
  component: function LoadedRolesPage() {
    return <RolesPage loaded={Route.useLoaderData()} />;
  },
});

interface Loaded {
  result: ListResult<Role>;
  locations: RoleLocation[];
  /** The editor's own grants at all locations, now and later. */
  mine: AllLocations;
  editing: EditorLoad<{ role: Role; history: AuditEntry[] }> | null;
}
const NO_LOCATIONS: readonly RoleLocation[] = [];
const NO_GRANTS: AllLocations = {};

function RolesPage({ loaded }: { loaded: Loaded | null }) {
  const { search, busy, onSearch, onRetry: retry } = useListSearch(Route);
  const router = useRouter();
  const { permissions, api } = Route.useRouteContext();
  const record = permissions.permissions;
  const canAdd = hasPermission(record, 'ur', 'add');
  const canEdit = hasPermission(record, 'ur', 'edit');
  const canDelete = hasPermission(record, 'ur', 'delete');
  const locations = loaded?.locations ?? NO_LOCATIONS;
  const names = useMemo(() => new Map(locations.map((location) => [location.location_id, location.name])), [locations]);
  const locationName = useCallback((id: number) => names.get(id) ?? `location ${id}`, [names]);
  // Opening and closing the editor is a navigation: back closes it again, and the address names what is open.
  const showEditor = useCallback(
    (editor: { edit?: number; new?: 1 }) => onSearch((current) => ({ ...current, edit: editor.edit, new: editor.new })),
    [onSearch],
  );
  const close = () => showEditor({});
  const onOpen = useCallback((role: Role) => showEditor({ edit: role.role_id }), [showEditor]);
  const creating = search.new !== undefined && search.edit === undefined;
  const editing = search.edit === undefined ? null : (loaded?.editing ?? { state: 'loading' as const });
  const editor = (role: Role | null, history: readonly AuditEntry[]) => (
    <RoleEditor
      key={role ? `${role.role_id}-${role.version}` : 'new'}
      role={role}
      history={history}
      editor={record}
      editorAllLocations={loaded?.mine ?? NO_GRANTS}
      locations={locations}
      canEdit={role ? canEdit : canAdd}
      canDelete={canDelete}
      save={(input, version) => (role && version !== null ? updateRole(api, role.role_id, { ...input, version }) : createRole(api, input))}
      remove={(version) => deleteRole(api, role!.role_id, version)}
      onSaved={(saved) => {
        toast({ title: saved ? 'Role saved' : 'Role deleted' });
        // A new role's address is its own from now on; a saved one loads again (list, role and History).
        if (saved && !role) showEditor({ edit: saved.role_id });
        else if (saved) void router.invalidate();
        else close();
      }}
      reload={() => router.invalidate()}
      onClose={close}
    />
  );

  return (
    <SectionPage title="User Roles">
      {canAdd && !creating && (
        <div className="list-toolbar">
          <button type="button" className="button primary" onClick={() => showEditor({ new: 1 })}>
            New role
          </button>
        </div>
      )}
      {creating &&
        (!canAdd ? (
          <EditorProblem
            noun="Role"
            load={{ state: 'refused', message: 'Your role does not allow adding roles.' }}
            backLabel="Back to the roles"
            onBack={close}
            onRetry={retry}
          />
        ) : loaded ? (
          editor(null, [])
        ) : (
          <EditorProblem noun="Role" load={{ state: 'loading' }} backLabel="Back to the roles" onBack={close} onRetry={retry} />
        ))}
      {editing &&
        (editing.state === 'ok' ? (
          editor(editing.data.role, editing.data.history)
        ) : (
          <EditorProblem noun="Role" load={editing} backLabel="Back to the roles" onBack={close} onRetry={retry} />
        ))}
      <RolesList
        search={search}
        result={loaded?.result ?? null}
        busy={busy}
        locationName={locationName}
        onOpen={onOpen}
        openLabel={canEdit ? 'Edit' : 'View'}
        onSearch={(update) => onSearch((current) => ({ ...update(roleListQueryOf(current)), edit: current.edit, new: current.new }))}
        onRetry={retry}
      />
    </SectionPage>
  );
}
