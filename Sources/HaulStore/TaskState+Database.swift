import GRDB
import HaulCore

/// Stores the state as its raw text (`waiting`, `running`, …), which the `task.state` CHECK
/// constraint limits to the known states.
extension TaskState: DatabaseValueConvertible {}
