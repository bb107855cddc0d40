"""File > Open Session… and Save Session…: the window's view in a session file
(core/saved/session_file), and that exact view again from it: the document, the chunker
and its options, layout B, the eval questions, the theme, the zoom, the search and the
selected chunk, the colouring, side by side and the open docks (session_view), and the
document's unsaved edits; a document never saved to a file is kept as its text, and comes
back untitled. ``chunkview FILE.chunkview.json`` opens one too (the window's open_path).

What needs saying (a document changed since, a file that is missing or broken) is said in
a bar above the editor, never in a dialog: the window stays usable, and as it was when a
session cannot be opened."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QBoxLayout,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QMenu,
    QPushButton,
    QStyle,
)

from chunkview.app.chunker_files import ChunkerFiles
from chunkview.app.chunker_panel import ChunkerPanel
from chunkview.app.compare_panel import ComparePanel
from chunkview.app.document_view import DocumentView
from chunkview.app.eval_panel import EvalPanel
from chunkview.app.files import EDITOR_MAX_CHARS, SAMPLES, DocumentFiles
from chunkview.app.presentation import ZoomAndPresentation
from chunkview.app.session_view import SessionView
from chunkview.app.theme import THEMES, ThemeMode
from chunkview.app.token_counter import TokenCounter
from chunkview.core import registry
from chunkview.core.errors import DocumentError
from chunkview.core.io.read import load_document
from chunkview.core.model.document import Document
from chunkview.core.runtime.pipeline import ChunkResult
from chunkview.core.saved.session_file import (
    SUFFIX,
    DocumentRef,
    EvalSetup,
    LayoutB,
    Session,
    SessionError,
    Setting,
    ViewState,
    file_sha256,
    read_session,
    resolve_entry_id,
    resolve_path,
    session_path_for,
    stored_entry_id,
    stored_path,
    untitled_ref,
    write_session,
)
from chunkview.core.session import Failure, InspectorModel, ModelEvent

SESSION_FILTER = f"chunkview sessions (*{SUFFIX});;All files (*)"


class SessionNoteBar(QFrame):
    """A bar above the editor with what opening a session has to say, and Close."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("sessionNoteBar")
        # palette(): a theme switch sets the sheet again (theme.apply_theme)
        self.setStyleSheet(
            "#sessionNoteBar { background: palette(alternate-base); "
            "border: 1px solid palette(mid); border-left: 4px solid #0072B2; }"
        )
        self.icon = QLabel()
        # paths and file names, as written: plain text, never markup
        self.message = QLabel()
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.close_button = QPushButton("Close")
        self.close_button.clicked.connect(self.hide)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 4, 8, 4)
        row.addWidget(self.icon)
        row.addWidget(self.message, 1)
        row.addWidget(self.close_button)
        #: the document's path the note is about (it goes when another is shown; "": an
        #: untitled document); None: the note is about a session file, and stays until closed
        self.about: str | None = None
        self.hide()

    def say(self, text: str, about: str | None = None, refused: bool = False) -> None:
        """Show ``text``: a note (about the document ``about``), or why something was
        ``refused``, with a warning sign."""
        pixmap = QStyle.StandardPixmap
        sign = pixmap.SP_MessageBoxWarning if refused else pixmap.SP_MessageBoxInformation
        size = self.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
        self.icon.setPixmap(self.style().standardIcon(sign).pixmap(size))
        self.message.setText(text)
        self.about = about
        self.show()


@dataclass
class _Restoring:
    """What is left to do once a run of the opened session's comes back: pin B (the run
    of ``pin_generation``), then show A (``a``), then select a chunk."""

    a: Setting
    selected: int | None
    pin_generation: int | None = None
    a_generation: int | None = None


@dataclass
class _Loading:
    """A session waiting for its chunker files: the chunking process describes each
    (``ChunkerFiles``), and the session is opened once every one is listed."""

    path: str
    session: Session
    document_file: str
    files: set[str] = field(default_factory=set)


def _function_file(entry_id: str) -> str | None:
    """The file of a chunker file's function id, None for any other id."""
    where, colon, _name = entry_id.rpartition(":")
    return where if colon and where.endswith(".py") else None


class SessionFiles(QObject):
    """Saving the window's view to a session file and opening one, over the window's
    parts (``frame`` owns the menu and dialogs; its status bar says what was done)."""

    def __init__(
        self,
        frame: QMainWindow,
        model: InspectorModel,
        *,
        files: DocumentFiles,
        chunker: ChunkerPanel,
        document_view: DocumentView,
        compare: ComparePanel,
        eval_panel: EvalPanel,
        zoom: ZoomAndPresentation,
        chunker_files: ChunkerFiles,
        token_counter: TokenCounter,
        view_parts: SessionView,
        file_menu: QMenu,
        after: QAction,
        select_entry: Callable[[str, dict[str, Any]], None],
        submit: Callable[[], None],
        theme_mode: Callable[[], ThemeMode],
        set_theme: Callable[[ThemeMode], None],
    ) -> None:
        super().__init__(frame)
        self.frame, self.model, self.files = frame, model, files
        self.chunker, self.document_view = chunker, document_view
        self.compare, self.eval_panel, self.zoom = compare, eval_panel, zoom
        self.select_entry, self.submit = select_entry, submit
        self.theme_mode, self.set_theme = theme_mode, set_theme
        self.chunker_files, self.token_counter = chunker_files, token_counter
        self.view_parts = view_parts
        self._restoring: _Restoring | None = None
        self._loading: _Loading | None = None
        chunker_files.loaded.connect(self._chunker_file_loaded)
        files.session_opener = self.open_session  # sessions in File > Open Recent
        chunker_files.load_failed.connect(self._chunker_file_failed)
        # the note bar under the one about outside changes, above the editor
        self.bar = SessionNoteBar()
        column = document_view.layout()
        if isinstance(column, QBoxLayout):
            column.insertWidget(column.indexOf(document_view.outside_bar) + 1, self.bar)
        # File > Open Session… and Save Session…, after ``after`` (Save As)
        actions = file_menu.actions()
        index = actions.index(after) + 1 if after in actions else len(actions)
        before = actions[index] if index < len(actions) else None
        self.open_action = QAction("Open Sess&ion…", frame)
        self.open_action.setToolTip("Reopen a view saved with Save Session")
        self.open_action.triggered.connect(lambda _checked=False: self.open_dialog())
        self.save_action = QAction("Save Sessio&n…", frame)
        self.save_action.setToolTip(
            "Save the document's name and hash (and its unsaved edits; an untitled "
            "document's text), the chunker and options, layout B, the questions and the "
            "view, to reopen this exact view"
        )
        self.save_action.triggered.connect(lambda _checked=False: self.save_dialog())
        separator = QAction(frame)
        separator.setSeparator(True)
        for action in (separator, self.open_action, self.save_action):
            if before is None:
                file_menu.addAction(action)
            else:
                file_menu.insertAction(before, action)
        model.subscribe(ModelEvent.DOCUMENT, self._document_shown)
        model.subscribe(ModelEvent.RESULT, self._result_shown)
        model.subscribe(ModelEvent.FAILED, self._run_failed)

    def _status(self, text: str) -> None:
        self.frame.statusBar().showMessage(text, 10000)

    def _refuse(self, text: str) -> None:
        self.bar.say(text, refused=True)
        self._status(text)

    # ----- saving ------------------------------------------------------------------------
    def save_dialog(self) -> str | None:
        document = self.model.document
        folder = os.path.dirname(self.files.path_on_disk() or "") or os.getcwd()
        stem = Path(document.name).stem if document.path else "session"
        path, _ = QFileDialog.getSaveFileName(
            self.frame, "Save the session", os.path.join(folder, stem + SUFFIX), SESSION_FILTER
        )
        return self.save_session(path) if path else None

    def current(self, session_path: str) -> Session:
        """The window's view as a session saved at ``session_path``; SessionError when
        the document's file cannot be read, or its text is not its file's (NULs shown)."""
        return self._session(self._document_ref(session_path), session_path)

    def _document_ref(self, session_path: str) -> DocumentRef:
        """The document as the session keeps it: its file (or sample) and hash, with its
        unsaved edits; an untitled document's text alone."""
        model, files = self.model, self.files
        document = model.sync_text()  # with the edits made since it was read
        if document.path is None:  # never saved to a file: its text is all there is
            return untitled_ref(document.text, document.encoding, document.kind)
        if files.sample:
            file = document.path
            ref = DocumentRef("", sample=os.path.basename(file))
        else:
            own = files.path_on_disk()
            if own is None:  # its NUL bytes shown as ␀: the text is not the file's
                raise SessionError(
                    f"{document.name} is shown with its NUL bytes replaced, not as its file "
                    "holds it: save the document to a file first"
                )
            file = own
            ref = DocumentRef("", path=stored_path(own, session_path))
        # edits not saved to the file are kept inline, so a session loses none of them
        text = document.text if model.modified else None
        sha: str | None = None
        try:
            sha = file_sha256(file)
        except FileNotFoundError:
            if text is None:
                raise SessionError(f"{file}: no such file") from None
        except OSError as error:
            raise SessionError(f"{file}: cannot be read ({error.strerror or error})") from None
        return DocumentRef(sha, ref.path, ref.sample, document.encoding, document.kind, text)

    def _session(self, ref: DocumentRef, session_path: str) -> Session:
        """The session of the document ``ref`` with the window's chunker, B, questions
        and view."""
        model = self.model
        b: LayoutB | None = None
        if model.b_source == "config" and model.b_entry_id:
            b_entry = stored_entry_id(model.b_entry_id, session_path)
            b = LayoutB("config", Setting(b_entry, dict(model.b_options)))
        elif model.pinned is not None:
            request = model.pinned.request
            b_entry = stored_entry_id(request.entry_id, session_path)
            b = LayoutB("pinned", Setting(b_entry, dict(request.options)))
        questions, retriever, top_k = self.eval_panel.retrieval_setup()
        counter = self.token_counter.path
        return Session(
            ref,
            Setting(stored_entry_id(model.entry_id, session_path), model.options),
            model.embedder,
            model.tokenizer,
            b,
            EvalSetup(tuple(questions), retriever, top_k),
            self.view_parts.kept(
                ViewState(self.theme_mode(), self.zoom.steps, model.query, model.selected)
            ),
            stored_path(counter, session_path) if counter else "cl100k",
        )

    def save_session(self, path: str) -> str | None:
        """Save the view to ``path`` (given the session suffix if it lacks it); the path
        written, or None (said) when it could not be."""
        path = session_path_for(path)
        try:
            write_session(self.current(path), path)
        except SessionError as error:
            self._refuse(f"Cannot save the session: {error}")
            return None
        self.files.remember(path)
        if self.model.document.path is None:
            edits = " (with the untitled document's text)"
        else:
            edits = " (with the document's unsaved edits)" if self.model.modified else ""
        self._status(f"Saved the session to {path}{edits}")
        return path

    # ----- opening -----------------------------------------------------------------------
    def open_dialog(self) -> bool:
        path, _ = QFileDialog.getOpenFileName(self.frame, "Open a session", "", SESSION_FILTER)
        return bool(path) and self.open_session(path)

    def _document_file(self, session: Session, path: str) -> str:
        """The document's file on this machine ("" for an untitled document);
        SessionError when it is not there."""
        ref = session.document
        if ref.text is not None and len(ref.text) > EDITOR_MAX_CHARS:
            raise SessionError(f"{path}: its document's text is too long for the editor")
        if ref.untitled:
            return ""
        if ref.sample is not None:
            sample = SAMPLES / ref.sample
            if not sample.is_file():
                raise SessionError(f"{path}: this chunkview has no sample named {ref.sample}")
            return str(sample)
        file = resolve_path(ref, path) or ""
        if not os.path.isfile(file) and ref.text is None:  # edits inline: the text is here
            raise SessionError(
                f"{path}: its document {file} is missing (moved, renamed or deleted); "
                "the window is left as it was"
            )
        return file

    @staticmethod
    def _resolved(session: Session, path: str) -> Session:
        """``session`` with its chunker files' and tokenizer file's paths on this
        machine (relative ones taken from the session file's folder)."""
        b = session.b
        if b is not None:
            b = replace(
                b, setting=replace(b.setting, entry_id=resolve_entry_id(b.setting.entry_id, path))
            )
        counter = session.token_counter
        if counter is not None and counter != "cl100k":
            counter = resolve_path(DocumentRef("", path=counter), path)
        entry = resolve_entry_id(session.setting.entry_id, path)
        return replace(
            session, setting=replace(session.setting, entry_id=entry), b=b, token_counter=counter
        )

    def _files_to_load(self, session: Session, path: str) -> set[str]:
        """The chunker files the session's chunkers are functions of, not yet listed in
        the picker; SessionError when the entry's is missing (B's is then a note)."""
        files: set[str] = set()
        entry_file = _function_file(session.setting.entry_id)
        if entry_file is not None:
            if not os.path.isfile(entry_file):
                raise SessionError(
                    f"{path}: its chunker file {entry_file} is missing (moved, renamed or "
                    "deleted); the window is left as it was"
                )
            files.add(entry_file)
        b_file = None if session.b is None else _function_file(session.b.setting.entry_id)
        if b_file is not None and os.path.isfile(b_file):
            files.add(b_file)
        return {file for file in files if file not in self.chunker_files.files}

    def open_session(self, path: str | os.PathLike[str]) -> bool:
        """Show the view saved in the session file at ``path``; False (said in the bar)
        when it cannot be opened, the window left as it was. A session whose chunker is a
        chunker file's function opens once the chunking process has described the file
        (``ChunkerFiles``, which watches it); True meanwhile."""
        path = os.fspath(path)
        try:
            session = self._resolved(read_session(path), path)
            file = self._document_file(session, path)
            files = self._files_to_load(session, path)
        except SessionError as error:
            self._refuse(f"Cannot open the session: {error}")
            return False
        if files:
            self._loading = _Loading(path, session, file, set(files))
            for chunker_file in sorted(files):
                self.chunker_files.load(chunker_file)
            names = ", ".join(os.path.basename(f) for f in sorted(files))
            self._status(f"Opening the session {os.path.basename(path)}: loading {names}…")
            return True
        return self._open_read(path, session, file)

    def _chunker_file_loaded(self, chunker_file: str) -> None:
        loading = self._loading
        if loading is None or chunker_file not in loading.files:
            return
        loading.files.discard(chunker_file)
        if not loading.files:
            self._loading = None
            self._open_read(loading.path, loading.session, loading.document_file)

    def _chunker_file_failed(self, chunker_file: str, why: str) -> None:
        loading = self._loading
        if loading is None or chunker_file not in loading.files:
            return
        if chunker_file == _function_file(loading.session.setting.entry_id):
            self._loading = None
            self._refuse(
                f"Cannot open the session: {loading.path}: its chunker file "
                f"{os.path.basename(chunker_file)} did not load: {why}"
            )
        else:  # B's file: the session opens without B, with a note
            self._chunker_file_loaded(chunker_file)

    def _open_read(self, path: str, session: Session, file: str) -> bool:
        """Open a session read and checked, its chunker files listed."""
        try:
            registry.get(session.setting.entry_id)  # its chunker is here, before any change
        except KeyError:
            self._refuse(
                f"Cannot open the session: {path}: its chunker {session.setting.entry_id} is "
                "not available here"
            )
            return False
        ref = session.document
        if ref.untitled:
            edited = self._open_untitled(ref)
            if edited is None:
                return False
            changed = False
        elif ref.text is not None:
            edited = self._open_edited(file, ref)
            if edited is None:
                return False
            changed = False
        else:
            try:
                changed = file_sha256(file) != ref.sha256
            except OSError as error:
                self._refuse(f"Cannot open the session: {file}: {error.strerror or error}")
                return False
            encoding = None if _is_utf8(ref.encoding) else ref.encoding
            if not self.files.open_path(file, sample=ref.sample is not None, encoding=encoding):
                return False  # the files said why
            edited = ""
        self.bar.hide()
        notes = self._apply(session)
        if edited:
            notes.insert(0, edited)
        if changed:
            notes.insert(
                0,
                f"{self.model.document.name} changed since this session was saved (its "
                "SHA-256 differs): the chunks, layout B and the questions' answers are those "
                "of the text as it is now.",
            )
        if notes:
            self.bar.say(" ".join(notes), about=self.model.document.path or "")
        self.files.remember(path)  # after its document: first in Open Recent
        self._status(f"Opened the session {os.path.basename(path)}")
        return True

    def _open_untitled(self, ref: DocumentRef) -> str | None:
        """Show the session's untitled document: its text, unsaved (Save asks where to
        write it); the note to say, or None when the user kept the current document's
        unsaved edits."""
        document = Document(ref.text or "", kind=ref.kind, encoding=ref.encoding)
        if not self.files.open_edited(document):
            return None
        return (
            "This untitled document's text comes from the session: it was never saved to a "
            "file; Save asks where to write it."
        )

    def _open_edited(self, file: str, ref: DocumentRef) -> str | None:
        """Show the session's text of the document as its file edited and not saved; the
        note to say ("" when the file holds that text: nothing was left unsaved), or None
        when it was not shown (the user kept the current document's edits)."""
        encoding = None if _is_utf8(ref.encoding) else ref.encoding
        text = ref.text or ""
        name = os.path.basename(file)
        sample = ref.sample is not None
        on_disk: Document | None = None
        unread = "missing"
        if os.path.isfile(file):
            try:
                on_disk = load_document(file, kind=ref.kind, encoding=encoding)
            except DocumentError as error:
                unread = f"cannot be read as {ref.encoding} ({error})"
        if on_disk is not None and on_disk.text == text:  # saved since: no edits to show
            return "" if self.files.open_path(file, sample=sample, encoding=encoding) else None
        bom = on_disk.bom if on_disk is not None else False
        document = Document(text, path=file, kind=ref.kind, bom=bom, encoding=ref.encoding)
        if not self.files.open_edited(document, sample=sample):
            return None
        what = "the sample" if sample else f"the file {file}"
        if on_disk is None and unread == "missing":
            state = f"{what} is missing; Save writes this text there"
        elif on_disk is None:
            state = f"{what} {unread}"
        else:
            state = f"{what} on disk differs from it"
        return (
            f"The text of {name} comes from the session: edits that were not saved to its "
            f"file, shown as unsaved; {state}."
        )

    def _apply(self, session: Session) -> list[str]:
        """Set the window to ``session`` on the document just opened; notes on what could
        not be. Whatever makes a run due comes before the entry, whose run goes at once."""
        notes: list[str] = []
        view = self.document_view
        kinds = view.kind_combo
        if self.model.document.kind != session.document.kind:
            kinds.setCurrentIndex(max(kinds.findData(session.document.kind), 0))
        for combo, value, what in (
            (self.chunker.embedder_combo, session.embedder or "", "embedder"),
            (self.chunker.tokenizer_combo, session.tokenizer, "tokenizer"),
        ):
            index = combo.findData(value)
            if index >= 0:
                combo.setCurrentIndex(index)
            elif value:
                notes.append(f"The {what} {value} is not available here.")
        self._apply_token_counter(session.token_counter, notes)
        self._apply_eval(session.eval)
        self._apply_view(session.view)
        self._apply_b(session.b, session.setting, session.view.selected, notes)
        # after B: stopping a comparison turns side by side off
        self.view_parts.apply_side_by_side(session.view.side_by_side)
        return notes

    def _apply_token_counter(self, counter: str | None, notes: list[str]) -> None:
        """Count tokens as the session did (a session saved before this was kept leaves
        the counter as it is)."""
        if counter is None:
            return
        path = None if counter == "cl100k" else counter
        if path == self.token_counter.path:
            return
        if path is not None and not os.path.isfile(path):
            notes.append(f"The tokenizer file {path} is missing: tokens are counted as before.")
        elif not self.token_counter.use(path, announce=False):
            notes.append(
                f"The tokenizer file {path} is no tokenizer: tokens are counted as before."
            )

    def _apply_eval(self, setup: EvalSetup) -> None:
        panel = self.eval_panel
        retriever = panel.retriever_box.findData(setup.retriever)
        if retriever >= 0:
            panel.retriever_box.setCurrentIndex(retriever)
        panel.top_k.setValue(setup.top_k)
        panel.set_questions(list(setup.questions))

    def _apply_view(self, view: ViewState) -> None:
        if view.theme in THEMES and view.theme != self.theme_mode():
            self.set_theme(view.theme)
        self.zoom.zoom(view.zoom - self.zoom.steps)
        self.document_view.search_box.setText(view.query)
        self.view_parts.apply_colouring(view)
        self.view_parts.apply_docks(view.docks, view.front_dock)

    def _apply_b(
        self, b: LayoutB | None, a: Setting, selected: int | None, notes: list[str]
    ) -> None:
        compare = self.compare
        if b is not None:
            try:
                registry.get(b.setting.entry_id)
            except KeyError:
                notes.append(f"Layout B's chunker {b.setting.entry_id} is not available here.")
                b = None
        if b is None or b.mode == "pinned":
            compare.stop_button.click()  # back to "B = a pinned layout", none pinned
        self._restoring = _Restoring(a, selected)
        if b is not None and b.mode == "config":
            if compare.entry_combo.findData(b.setting.entry_id) < 0:  # a chunker file's
                compare.entry_combo.addItem(b.setting.entry_id, b.setting.entry_id)
            compare.set_b(b.setting.entry_id, b.setting.options)
        elif b is not None:
            # B is a pinned layout: run its setting, pin the result, then show A
            self.select_entry(b.setting.entry_id, b.setting.options)
            self.submit()
            self._restoring.pin_generation = self.model.generation
            return
        self._show_a()

    def _show_a(self) -> None:
        restoring = self._restoring
        if restoring is None:
            return
        self.select_entry(restoring.a.entry_id, restoring.a.options)
        self.submit()
        restoring.a_generation = self.model.generation

    def _result_shown(self, result: ChunkResult) -> None:
        restoring = self._restoring
        if restoring is None:
            return
        if result.generation == restoring.pin_generation:
            restoring.pin_generation = None
            self.model.pin(True)
            self._show_a()
        elif result.generation == restoring.a_generation:
            self._restoring = None
            self._select(restoring.selected, result)
        elif result.generation > max(restoring.pin_generation or 0, restoring.a_generation or 0):
            self._restoring = None  # the user moved on meanwhile

    def _select(self, index: int | None, result: ChunkResult) -> None:
        if index is None or index >= len(result.layout.spans):
            return
        self.model.select_chunk(index)
        self.document_view.editor.show_position(result.layout.spans[index].start)

    def _run_failed(self, failure: Failure) -> None:
        restoring = self._restoring
        if restoring is None:
            return
        if failure.generation == restoring.pin_generation:
            restoring.pin_generation = None
            about = self.model.document.path or ""
            note = (
                f"Layout B ({failure.entry_id}) could not be made again: {failure.name}: "
                f"{failure.message}"
            )
            if not self.bar.isHidden() and self.bar.about == about:  # the opening's note too
                note = f"{self.bar.message.text()} {note}"
            self.bar.say(note, about=about)
            self._show_a()
        elif failure.generation == restoring.a_generation:
            self._restoring = None

    def _document_shown(self) -> None:
        """A note about another document goes when this one is shown; a session still
        waiting for its chunker files is not opened over it (the user moved on). An
        untitled document shown is always another (File › New), whatever the note is about."""
        self._loading = None
        about, path = self.bar.about, self.model.document.path
        if about is not None and (path is None or about != path):
            self.bar.hide()


def _is_utf8(encoding: str) -> bool:
    """UTF-8 is read as at first (its byte-order mark recognised): no encoding given."""
    return encoding.replace("_", "-").lower() == "utf-8"


def attach(window: Any) -> SessionFiles:
    """Session files for the main window: File > Open Session… and Save Session… after
    Save As, over its panels, docks, zoom and theme."""
    views = window.views
    return SessionFiles(
        window,
        window.model,
        files=window.files,
        chunker=window.chunker,
        document_view=window.view,
        compare=window.views.compare,
        eval_panel=window.views.eval_panel,
        zoom=window.presentation,
        chunker_files=window.chunker_files,
        token_counter=window.token_counter,
        view_parts=SessionView(
            window.view,
            views.lanes,
            views.compare,
            {
                "lanes": views.lanes_dock,
                "sweep": views.sweep_dock,
                "eval": views.eval_dock,
                "audit": views.audit_dock,
            },
            lambda: views.docks_set_aside,
        ),
        file_menu=window.menus.menus[0],
        after=window.menus.save_as,
        select_entry=window.select_entry,
        submit=window.submit,
        theme_mode=lambda: window.theme_mode,
        set_theme=window.set_theme,
    )
