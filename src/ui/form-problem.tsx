/**
 * Why a form's last action failed, in words (the server's message, or what to fix first), announced as it appears;
 * nothing while there is no problem.
 */
export function FormProblem({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}
