print("haul-fault-server: not built yet")
