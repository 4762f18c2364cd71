import GRDB
import HaulCore

/// Stores the action as its raw text (`pause`, `remove-delete-file`, …), which the
/// `controlRequest.action` CHECK constraint limits to the known actions.
extension ControlRequest.Action: DatabaseValueConvertible {}
