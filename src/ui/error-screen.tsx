/** The error boundary's screen; its two sentences are fixed by the product spec (§2). */
export function ErrorScreen() {
  return (
    <section className="notice-screen" role="alert">
      <h1>Hmm. It looks like something went wrong.</h1>
      <p>Please reload the page and try again.</p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        Reload
      </button>
    </section>
  );
}
