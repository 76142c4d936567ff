import { createFileRoute, useRouter } from '@tanstack/react-router';
import { useCallback } from 'react';
import { deleteUser, exportUsersCsv, inviteUser, saveUserWithNewRole, setUserStatus, updateUser } from '../../../api/users';
import { getRole, listRoleLocations } from '../../../api/roles';
import { permissionRecordSchema } from '../../../permissions/features';
import { pageLoadOptions } from '../../../api/page-load';
import { forgivingSearch, loadListPage, type ListResult } from '../../-shared/list-route';
import { requireAccess } from '../../-shared/require-access';
import { userConfigSearchSchema, userListQueryOf } from '../../../contract/user-search';
import type { AuditEntry } from '../../../contract/lists';
import type { AssignableRole, StaffUser } from '../../../contract/users';
import { hasPermission } from '../../../permissions/rules';
import { SectionPage } from '../../../ui/section-page';
import { EditorProblem, loadEditor, type EditorLoad } from '../../-shared/editor-load';
import { EditUser } from './-components/edit-user';
import { InviteUser } from './-components/invite-user';
import { UsersList } from './-components/users-list';
import { useListSearch } from '../../-shared/use-list-search';


/**
 * Users (spec /user-config, users view): the staff list in the URL, and the open panel too (`?edit=<userId>`,
 * `?invite=1`), so an edit can be reloaded, linked or opened in a new tab. The loader loads the panel's record beside
 * the page.
 */
export const Route = createFileRoute('/_authenticated/(users)/user-config')({
  validateSearch: forgivingSearch(userConfigSearchSchema),
  loaderDeps: ({ search }) => search,
  beforeLoad: ({ context }) => requireAccess(context, 'users'),
  loader: async ({ context, deps, abortController }): Promise<Loaded> => {
    // A refusal is said on the page (in place, or the panel's problem), never by a toast too.
    const options = pageLoadOptions(abortController);
    // Imported here, not at the top: the entry chunk carries only this route's search check
    // (docs/decisions/0015-admin-code-out-of-the-entry-chunk.md).
    const api = import('../../../api/users');
    const roles = async () => (await api).listAssignableRoles(context.api, options);
    const userId = deps.edit;
    const [result, editing, inviting] = await Promise.all([
      loadListPage(async () => (await api).listUsers(context.api, userListQueryOf(deps), options)),
      userId === undefined
        ? null
        : loadEditor(async () => {
            const { getUser, getUserHistory } = await api;
            const [user, history, offered] = await Promise.all([
              getUser(context.api, userId, options),
              getUserHistory(context.api, userId, options),
              roles(),
            ]);
            return { user, history, roles: offered };
          }),
      deps.invite && userId === undefined ? loadEditor(roles) : null,
    ]);
    return { result, editing, inviting };
  },
  pendingMs: 400,
  pendingComponent: () => <UsersPage loaded={null} />,
  component: function LoadedUsersPage() {
    return <UsersPage loaded={Route.useLoaderData()} />;
  },
});

interface Loaded {
  result: ListResult<StaffUser>;
  editing: EditorLoad<{ user: StaffUser; history: AuditEntry[]; roles: AssignableRole[] }> | null;
  inviting: EditorLoad<AssignableRole[]> | null;
}

function UsersPage({ loaded }: { loaded: Loaded | null }) {
  const { search, busy, onSearch, onRetry: retry } = useListSearch(Route);
  const router = useRouter();
  const { permissions, api } = Route.useRouteContext();
  const record = permissions.permissions;
  const canInvite = hasPermission(record, 'u', 'add');
  const mayEdit = hasPermission(record, 'u', 'edit');
  // Nobody edits their own account here: the server refuses a change of one's own role or status anyway.
  const canEdit = useCallback((user: StaffUser) => mayEdit && user.email !== permissions.email, [mayEdit, permissions.email]);
  // Opening and closing a panel is a navigation: back closes it again, and the address names what is open.
  const showPanel = useCallback(
    (panel: { edit?: number; invite?: 1 }) =>
      onSearch((current) => ({ ...current, edit: panel.edit, invite: panel.invite })),
    [onSearch],
  );
  const close = () => showPanel({});
  const onEdit = useCallback((user: StaffUser) => showPanel({ edit: user.user_id }), [showPanel]);
  const editing = loaded?.editing;
  const inviting = loaded?.inviting;
  // Save as new role starts from what the user's role grants now, on every location the role editor shows.
  const newRoleStart = useCallback(
    async (user: StaffUser) => {
      const [locations, role] = await Promise.all([
        listRoleLocations(api),
        user.role_id === null ? null : getRole(api, user.role_id),
      ]);
      return { locations, permissions: role?.permissions ?? permissionRecordSchema.parse({}) };
    },
    [api],
  );

  return (
    <SectionPage title="Users">
      {canInvite && search.invite === undefined && (
        <div className="list-toolbar">
          <button type="button" className="button primary" onClick={() => showPanel({ invite: 1 })}>
            Invite user
          </button>
        </div>
      )}
      {search.invite !== undefined && search.edit === undefined && (
        !canInvite ? (
          <EditorProblem
            noun="Invitation"
            load={{ state: 'refused', message: 'Your role does not allow inviting staff.' }}
            backLabel="Back to the staff list"
            onBack={close}
            onRetry={retry}
          />
        ) : inviting?.state === 'ok' ? (
          <InviteUser
            roles={inviting.data}
            invite={async (input) => {
              const sent = await inviteUser(api, input);
              void router.invalidate();
              return sent;
            }}
            onClose={close}
          />
        ) : (
          <EditorProblem noun="Invitation" load={inviting ?? { state: 'loading' }} backLabel="Back to the staff list" onBack={close} onRetry={retry} />
        )
      )}
      {search.edit !== undefined &&
        (editing?.state === 'ok' && !canEdit(editing.data.user) ? (
          <EditorProblem
            noun="Staff member"
            load={{
              state: 'refused',
              message: mayEdit ? 'You cannot change your own account; ask another administrator.' : 'Your role does not allow changing staff.',
            }}
            backLabel="Back to the staff list"
            onBack={close}
            onRetry={retry}
          />
        ) : editing?.state === 'ok' ? (
          <EditUser
            key={editing.data.user.user_id}
            user={editing.data.user}
            history={editing.data.history}
            roles={editing.data.roles}
            save={(update) => updateUser(api, editing.data.user.user_id, update)}
            setStatus={(status, version) => setUserStatus(api, editing.data.user.user_id, { status, version })}
            remove={
              hasPermission(record, 'u', 'delete')
                ? (version) => deleteUser(api, editing.data.user.user_id, version)
                : undefined
            }
            newRole={
              mayEdit && hasPermission(record, 'ur', 'add')
                ? {
                    editor: record,
                    load: () => newRoleStart(editing.data.user),
                    save: (role, version) => saveUserWithNewRole(api, editing.data.user.user_id, { role, version }),
                  }
                : undefined
            }
            reload={() => router.invalidate()}
            onClose={close}
          />
        ) : (
          <EditorProblem noun="Staff member" load={editing ?? { state: 'loading' }} backLabel="Back to the staff list" onBack={close} onRetry={retry} />
        ))}
      <UsersList
        search={search}
        result={loaded?.result ?? null}
        busy={busy}
        canEdit={canEdit}
        onEdit={onEdit}
        onSearch={(update) => onSearch((current) => ({ ...update(userListQueryOf(current)), edit: current.edit, invite: current.invite }))}
        onRetry={retry}
        onExport={(onProgress) => exportUsersCsv(api, userListQueryOf(search), onProgress)}
      />
    </SectionPage>
  );
}
