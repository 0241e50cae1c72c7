"""Alembic's entry point: the hall runs migrations on its own connection at start-up."""

from alembic import context

from dominohall.store.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError(
        "run migrations through dominohall.store.Store.open (it passes a connection)"
    )

context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
